import BenchmarkSupport
import FirestoreClient
import Foundation

/// One soak run: listeners on a mock server that keeps changing under them while their
/// back channel keeps breaking.
struct Soak {
  let options: SoakOptions
  /// The collection written and listened to.
  private let collection = "soak"
  /// Writes cycle over this many documents, so the data (and the cache) stays the same size.
  private let documentCount = 20

  /// Runs the soak, printing progress and the result; returns whether every check passed.
  func run(mockServer path: String) async throws -> Bool {
    let server = try MockServerProcess(executable: path)
    defer { server.stop() }
    let db = Firestore(projectID: "soak", settings: .emulator(host: server.hostAndPort))
    let admin = CurlTransport()
    Console.say(
      "soak: \(options.seconds) s, a write every \(options.writeIntervalMilliseconds) ms, the back channel cut every "
        + "\(options.cutIntervalSeconds) s, mock server at \(server.hostAndPort)")

    let replica = ListenerReplica()
    let listeners = startListeners(db, replica)
    defer { for listener in listeners { listener.cancel() } }

    let clock = ContinuousClock()
    let start = clock.now
    let writeInterval = Duration.milliseconds(options.writeIntervalMilliseconds)
    let sampleEvery = max(5, options.seconds / 20)
    var expected: [String: Int] = [:]
    var writes = 0
    var deletes = 0
    var cuts = 0
    var cutsWithoutRecovery = 0
    var snapshotsAtLastCut: Int?
    var nextCut = options.cutIntervalSeconds
    var nextSample = 0
    var samples: [(seconds: Int, bytes: Int)] = []
    while true {
      let elapsed = clock.now - start
      let second = Int(elapsed.components.seconds)
      if second >= nextSample {
        let bytes = ResidentMemory.current() ?? 0
        samples.append((second, bytes))
        let counts = replica.snapshotCounts
        Console.say(
          "  t=\(pad(second, 4)) s  rss \(megabytes(bytes))  writes \(pad(writes, 6))  snapshots \(pad(counts.query, 6)) / "
            + "\(pad(counts.document, 5))  cuts \(cuts)")
        nextSample += sampleEvery
      }
      if second >= options.seconds { break }
      if let failure = replica.failure { throw ToolFailure(failure) }
      if second >= nextCut {
        let seen = replica.snapshotCounts.query
        if let before = snapshotsAtLastCut, seen <= before { cutsWithoutRecovery += 1 }
        try await cutBackChannels(admin, server.hostAndPort)
        snapshotsAtLastCut = seen
        cuts += 1
        nextCut += options.cutIntervalSeconds
      }
      let id = "d\(writes % documentCount)"
      let document = db.collection(collection).document(id)
      if writes % 37 == 36 {
        try await document.delete()
        expected[id] = nil
        deletes += 1
      } else {
        try await document.setData(["v": writes])
        expected[id] = writes
      }
      writes += 1
      let due = start + writeInterval * writes
      if due > clock.now { try await Task.sleep(until: due, clock: clock) }
    }

    // Writes are over: both listeners must come to rest on the server's state.
    let serverDocuments = try await db.collection(collection).getDocuments(source: .server)
    let onServer = Dictionary(uniqueKeysWithValues: serverDocuments.documents.map { ($0.documentID, $0.get("v") as? Int ?? -1) })
    let settleBy = clock.now + .seconds(30)
    while replica.documents != onServer || replica.lastWatched != onServer["d0"] ?? -1, clock.now < settleBy {
      try await Task.sleep(for: .milliseconds(50))
    }
    if let before = snapshotsAtLastCut, replica.snapshotCounts.query <= before { cutsWithoutRecovery += 1 }

    var problems: [String] = []
    if let failure = replica.failure { problems.append(failure) }
    problems += replica.violations
    if onServer != expected { problems.append("the server holds \(onServer.count) documents, the writer expected \(expected.count)") }
    if replica.documents != onServer {
      problems.append("the query listener ended with \(replica.documents.count) documents unlike the server's \(onServer.count)")
    }
    if replica.lastWatched != onServer["d0"] ?? -1 {
      problems.append("the document listener ended at v=\(replica.lastWatched ?? -3), the server has \(onServer["d0"] ?? -1)")
    }
    if cutsWithoutRecovery > 0 { problems.append("\(cutsWithoutRecovery) cuts were not followed by any snapshot") }

    let warmUp = min(10, max(1, options.seconds / 6))
    let first = samples.first { $0.seconds >= warmUp } ?? samples[0]
    let last = samples[samples.count - 1]
    let peak = samples.map(\.bytes).max() ?? 0
    let growth = Double(last.bytes - first.bytes) / 1_048_576
    if growth > options.rssGrowthLimitMegabytes {
      problems.append("resident memory grew \(String(format: "%.1f", growth)) MB, over the \(options.rssGrowthLimitMegabytes) MB limit")
    }
    let counts = replica.snapshotCounts
    Console.say(
      "writes \(writes) (\(deletes) deletes), cuts \(cuts), snapshots \(counts.query) (query) and \(counts.document) (document), "
        + "final state: \(onServer.count) documents")
    Console.say(
      "rss: start \(megabytes(first.bytes)) (at \(first.seconds) s), end \(megabytes(last.bytes)), peak \(megabytes(peak)), "
        + "growth \(String(format: "%.1f", growth)) MB (limit \(options.rssGrowthLimitMegabytes) MB)")
    for problem in problems { Console.say("FAIL: \(problem)") }
    Console.say(problems.isEmpty ? "PASS" : "FAILED with \(problems.count) problems")
    return problems.isEmpty
  }

  private func startListeners(_ db: Firestore, _ replica: ListenerReplica) -> [Task<Void, Never>] {
    let query = db.collection(collection)
    let watched = db.collection(collection).document("d0")
    return [
      Task {
        do {
          for try await snapshot in query.snapshots { replica.apply(snapshot) }
        } catch {
          if !Task.isCancelled { replica.fail("the query listener ended: \(error)") }
        }
      },
      Task {
        do {
          for try await snapshot in watched.snapshots { replica.apply(snapshot) }
        } catch {
          if !Task.isCancelled { replica.fail("the document listener ended: \(error)") }
        }
      },
    ]
  }

  private func cutBackChannels(_ transport: CurlTransport, _ host: String) async throws {
    guard let url = URL(string: "http://\(host)/mock/v1/listen:cut") else { throw ToolFailure("bad mock address \(host)") }
    let response = try await transport.send(HTTPRequest(method: "POST", url: url, body: Data()))
    _ = try await response.collectBody()
    guard response.status == 200 else { throw ToolFailure("the mock answered HTTP \(response.status) to a cut") }
  }

  private func megabytes(_ bytes: Int) -> String { String(format: "%.1f MB", Double(bytes) / 1_048_576) }

  private func pad(_ number: Int, _ width: Int) -> String {
    let text = String(number)
    return String(repeating: " ", count: max(0, width - text.count)) + text
  }
}
