import FirestoreMock
import FirestoreTestSupport
import Foundation
import Testing

@testable import FirestoreClient

/// Many transactions racing on one counter: every increment lands exactly once, without
/// faults on both backends, and with injected faults on the mock.
@Suite("Contention")
struct ContentionTests {
  static let workers = 8
  static let incrementsPerWorker = 50
  /// Increments per worker on the emulator. Its pessimistic locks end every lost race with a
  /// 2-second lock timeout: 8 × 50 took 68 s on a warm emulator, and 8 × 10 took 120 s on a
  /// cold one under the whole suite (slowing every other emulator test), so the suite runs
  /// 8 × 3, and `FIRESTORE_CONTENTION_INCREMENTS=50` runs the full count.
  static let emulatorIncrementsPerWorker =
    ProcessInfo.processInfo.environment["FIRESTORE_CONTENTION_INCREMENTS"].flatMap { Int($0) } ?? 3

  @Test("8 concurrent workers' transactional increments of one counter all land once (8 × 50 on the mock)", arguments: Backend.all)
  func counter(_ backend: Backend) async throws {
    let increments = backend.workload(mock: Self.incrementsPerWorker, emulator: Self.emulatorIncrementsPerWorker)
    let db = backend.firestore { settings in
      // On the emulator, jittered waits of up to seconds spread the retries out, so that
      // fewer of them meet again in the same lock conflict (each costs 2 s there). The mock
      // finds a conflict at once, and short waits keep its 400 increments quick.
      settings.retryPolicy.initialBackoff = backend.reachesEmulator ? .milliseconds(500) : .milliseconds(5)
      settings.retryPolicy.maximumBackoff = backend.reachesEmulator ? .seconds(4) : .milliseconds(100)
    }
    let counter = db.document(backend.collection().document("counter").path)
    try await counter.setData(["n": 0])
    let attempts = Counter()
    try await withThrowingTaskGroup(of: Void.self) { group in
      for _ in 0..<Self.workers {
        group.addTask {
          for _ in 0..<increments {
            try await db.runTransaction(options: TransactionOptions(maxAttempts: 100)) { tx in
              attempts.increment()
              let n = try await tx.getDocument(counter).get("n") as? Int ?? 0
              tx.updateData(["n": n + 1], forDocument: counter)
              return ()
            }
          }
        }
      }
      try await group.waitForAll()
    }
    #expect(try await counter.getDocument().get("n") as? Int == Self.workers * increments)
    #expect(attempts.value >= Self.workers * increments)
  }

  /// Under faults on every transaction call, an increment whose commit outcome is unknown is
  /// reported to the caller as `unavailable` — never re-sent by the client — and the caller
  /// makes the retry safe with a marker document written in the same transaction.
  @Test("with faults injected on begin, reads and commits, still exactly 400 and no write doubled", .requires(.mock))
  func counterUnderFaults() async throws {
    // A write held by another transaction's lock gives up soon: the faults leave
    // transactions open, and every wait for one is time the test only spends waiting.
    let server = try MockFirestoreServer.start(lockTimeout: .milliseconds(50))
    defer { server.stop() }
    let settings = FirestoreSettings.emulator(host: server.hostAndPort)
    settings.timeout = hangLimit
    settings.retryPolicy.initialBackoff = .milliseconds(5)
    settings.retryPolicy.maximumBackoff = .milliseconds(50)
    // Faults are re-armed every 15 ms, so a retried read or begin may meet a few in a row.
    settings.retryPolicy.maximumAttempts = 20
    let db = Firestore(projectID: "contention", settings: settings)
    let counter = db.document("counters/c")
    let markers = db.collection("counters/c/applied")
    try await counter.setData(["n": 0])

    let done = Counter()
    let driver = Task { await FaultDriver(server: server).run(until: done) }

    let ambiguous = Counter()
    let alreadyApplied = Counter()
    try await withThrowingTaskGroup(of: Void.self) { group in
      for worker in 0..<Self.workers {
        group.addTask {
          for i in 0..<Self.incrementsPerWorker {
            let marker = markers.document("w\(worker)-\(i)")
            while true {
              do {
                try await db.runTransaction(options: TransactionOptions(maxAttempts: 100)) { tx in
                  let snapshots = try await tx.getAll([counter, marker])
                  // A commit whose answer was lost may have applied: the marker tells.
                  if snapshots[1].exists { throw AlreadyApplied() }
                  let n = snapshots[0].get("n") as? Int ?? 0
                  tx.updateData(["n": n + 1], forDocument: counter)
                  tx.create(["worker": worker], forDocument: marker)
                  return ()
                }
                break
              } catch is AlreadyApplied {
                alreadyApplied.increment()
                break
              } catch let error as FirestoreError where error.code == .unavailable {
                // The documented outcome of a commit that may or may not have applied.
                ambiguous.increment()
              }
            }
          }
        }
      }
      try await group.waitForAll()
    }
    done.increment()
    await driver.value
    server.faults.removeAll()

    let total = Self.workers * Self.incrementsPerWorker
    #expect(try await counter.getDocument().get("n") as? Int == total)
    #expect(try await markers.count.getAggregation().count.intValue == total)

    // Every commit the client could not be sure of reached the caller once: the client
    // sent no commit twice on its own.
    let commits = server.requestLog.entries.filter { $0.path.hasSuffix(":commit") }
    // An injected 503, or a cut answer whose status line was not 409 (a cut `ABORTED` still
    // says that nothing applied, and the transaction restarts by itself).
    let unsure = commits.filter { entry in
      entry.faults.contains { fault in
        switch fault {
        case .error(503, _, _): return true
        case .truncateStream: return entry.status != 409
        default: return false
        }
      }
    }
    #expect(ambiguous.value == unsure.count)
    // Cut answers of commits that did apply: exactly the re-runs that found their marker.
    let appliedButCut = unsure.filter { entry in
      entry.status == 200 && entry.faults.contains { if case .truncateStream = $0 { true } else { false } }
    }
    #expect(alreadyApplied.value == appliedButCut.count)
    #expect(appliedButCut.count >= FaultDriver.appliedCutsWanted)
    // The other faults fired too, and were absorbed by retries.
    let logged = server.requestLog.entries
    #expect(logged.contains { $0.path.hasSuffix(":beginTransaction") && !$0.faults.isEmpty })
    #expect(logged.contains { $0.path.hasSuffix(":batchGet") && !$0.faults.isEmpty })
    #expect(commits.contains { $0.faults.contains(.error(status: 409, grpcStatus: "ABORTED", message: "injected abort")) })
  }
}

/// Thrown by a re-run increment that finds its marker: its earlier commit did apply.
private struct AlreadyApplied: Error {}

/// Keeps one fault armed at a time on each transaction RPC until told to stop, cycling
/// through the kinds, so that faults never pile onto the same request.
private struct FaultDriver {
  /// How many commits must have applied with their answer cut before the driver stops
  /// arming that fault, so the test exercises the ambiguous-but-applied path for sure.
  static let appliedCutsWanted = 3

  let server: MockFirestoreServer

  /// Arms faults until `done` has been incremented.
  func run(until done: Counter) async {
    let commitFaults: [Fault] = [
      .error(status: 409, grpcStatus: "ABORTED", message: "injected abort"),
      .error(status: 503, grpcStatus: "UNAVAILABLE", message: "injected unavailable"),
      .truncateStream(afterBytes: 1),
      .latency(milliseconds: 20),
    ]
    let beginFaults: [Fault] = [.error(status: 503, grpcStatus: "UNAVAILABLE", message: "injected"), .latency(milliseconds: 10)]
    let readFaults: [Fault] = [.error(status: 500, grpcStatus: "INTERNAL", message: "injected"), .latency(milliseconds: 5)]
    var step = 0
    while done.value == 0 {
      let armed = Set(server.faults.rules.compactMap(\.route))
      if !armed.contains("commit") {
        var fault = commitFaults[step % commitFaults.count]
        // Keep cutting answers until enough applied commits lost theirs.
        if step % 2 == 1 && appliedCuts() < Self.appliedCutsWanted { fault = .truncateStream(afterBytes: 1) }
        server.faults.add(FaultRule(route: "commit", fault: fault, remaining: 1))
      }
      if !armed.contains("beginTransaction") {
        server.faults.add(FaultRule(route: "beginTransaction", fault: beginFaults[step % beginFaults.count], remaining: 1))
      }
      if !armed.contains("batchGet") {
        server.faults.add(FaultRule(route: "batchGet", fault: readFaults[step % readFaults.count], remaining: 1))
      }
      step += 1
      try? await Task.sleep(for: .milliseconds(15))
    }
  }

  private func appliedCuts() -> Int {
    server.requestLog.entries.filter { entry in
      entry.path.hasSuffix(":commit") && entry.status == 200
        && entry.faults.contains { if case .truncateStream = $0 { true } else { false } }
    }.count
  }
}
