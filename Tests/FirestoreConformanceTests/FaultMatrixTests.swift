import FirestoreMock
import FirestoreTestSupport
import Foundation
import Synchronization
import Testing

@testable import FirestoreClient

/// The fault matrix: every kind of call under every fault the mock injects, each cell with
/// its outcome pinned — a retry that succeeds or a typed error within the deadline, never a
/// hang; a commit that may have applied is never sent again, and the database shows it
/// applied at most once; a listener recovers with every change exactly once.
///
/// Each cell runs against a mock server of its own, so that rules cannot leak. Mock only:
/// the emulator cannot inject faults.
///
/// Why these outcomes (see also the "Faults, call by call" section of the
/// InvalidInputAndUncertainCommits article):
/// - Reads are idempotent: every transient fault (5xx, 429, a reset, a reply that is cut
///   short or is not Firestore's JSON) is retried, as Google's own clients retry reads on
///   `UNAVAILABLE`, `INTERNAL` and `DEADLINE_EXCEEDED`, and the second retry gets through.
/// - A commit with a transform (`increment`) is not idempotent: it is never sent again after
///   the request went out when the answer leaves its outcome open (Google's clients do not
///   retry `Commit` either). The caller gets the error; the state shows whether it applied.
///   A 429 says the request was refused unapplied: the write queue sends it again after a
///   backoff, as the Firebase SDKs' write stream does.
/// - A transaction whose commit failed that way is not run again either: if the commit did
///   apply, a re-run would read the new value and increment it once more. One refused for
///   load (429) applied nothing, and runs again, as the Firebase SDKs' transactions do.
/// - A reply larger than the client reads fails `resourceExhausted` at once, for reads and
///   writes alike: the same request would get as large a reply again.
/// - 401 refreshes the token and resends once (nothing was applied), then fails
///   `unauthenticated`.
/// - A reply that did not arrive whole (a reset, JSON cut short) is `unavailable`; one that
///   arrived whole but is not Firestore's JSON (invalid JSON, an HTML page, an empty body)
///   is `internal`, with the content type and the start of the body in the message.
/// - A listener never sees a transport failure: like the Firebase SDKs, the client reopens
///   the back channel or the session and resumes from the last consistent snapshot. A back
///   channel lost before the server answered it (a reset, or a gateway's 502 or 503) is sent
///   again within the session, as the WebChannel client does; no new session is opened.
@Suite("Fault matrix", .requires(.mock))
struct FaultMatrixTests {
  typealias Cell = FaultMatrixCell

  /// The matrix: 7 calls × 13 faults, each cell's outcome stated explicitly (the four reads
  /// share one column, ``readCells(_:)``).
  static let cells: [Cell] =
    [Cell.Call.get, .batchGet, .runQueryStream, .aggregation].flatMap(readCells) + [
      // commit: updateData(["n": FieldValue.increment(1)]); never sent twice once it went out
      Cell(.commit, .delayPastDeadline, .fails(.deadlineExceeded, requests: 1), applied: .once),
      Cell(.commit, .unavailable503, .fails(.unavailable, requests: 1), applied: .never),
      Cell(.commit, .resourceExhausted429, .succeedsAfterRetry(requests: 3), applied: .once),
      Cell(.commit, .internal500, .fails(.internal, requests: 1), applied: .never),
      Cell(.commit, .badGateway502, .fails(.unavailable, requests: 1), applied: .never),
      Cell(.commit, .resetBeforeResponse, .fails(.unavailable, requests: 1), applied: .once),
      Cell(.commit, .resetMidResponse, .fails(.unavailable, requests: 1), applied: .once),
      Cell(.commit, .truncatedJSON, .fails(.unavailable, requests: 1), applied: .never),
      Cell(.commit, .invalidJSON, .fails(.internal, requests: 1), applied: .never),
      Cell(.commit, .wrongContentType, .fails(.internal, requests: 1), applied: .never),
      Cell(.commit, .emptyBody, .fails(.internal, requests: 1), applied: .never),
      Cell(.commit, .unauthenticated401, .fails(.unauthenticated, requests: 2), applied: .never),
      Cell(.commit, .oversizedReply, .fails(.resourceExhausted, requests: 1), applied: .never),
      // transaction: read n, write n + 1; the faults hit its commit; the body runs again only
      // after a refusal that applied nothing
      Cell(.transaction, .delayPastDeadline, .fails(.deadlineExceeded, requests: 1), applied: .never),
      Cell(.transaction, .unavailable503, .fails(.unavailable, requests: 1), applied: .never),
      Cell(.transaction, .resourceExhausted429, .succeedsAfterRetry(requests: 3), applied: .once),
      Cell(.transaction, .internal500, .fails(.internal, requests: 1), applied: .never),
      Cell(.transaction, .badGateway502, .fails(.unavailable, requests: 1), applied: .never),
      Cell(.transaction, .resetBeforeResponse, .fails(.unavailable, requests: 1), applied: .once),
      Cell(.transaction, .resetMidResponse, .fails(.unavailable, requests: 1), applied: .once),
      Cell(.transaction, .truncatedJSON, .fails(.unavailable, requests: 1), applied: .never),
      Cell(.transaction, .invalidJSON, .fails(.internal, requests: 1), applied: .never),
      Cell(.transaction, .wrongContentType, .fails(.internal, requests: 1), applied: .never),
      Cell(.transaction, .emptyBody, .fails(.internal, requests: 1), applied: .never),
      Cell(.transaction, .unauthenticated401, .fails(.unauthenticated, requests: 2), applied: .never),
      Cell(.transaction, .oversizedReply, .fails(.resourceExhausted, requests: 1), applied: .never),
      // listen: the reopened back channel meets the fault (twice)
      Cell(.listen, .delayPastDeadline, .recovers(newSessions: 0)),
      Cell(.listen, .unavailable503, .recovers(newSessions: 0)),
      Cell(.listen, .resourceExhausted429, .recovers(newSessions: 2)),
      Cell(.listen, .internal500, .recovers(newSessions: 2)),
      Cell(.listen, .badGateway502, .recovers(newSessions: 0)),
      Cell(.listen, .resetBeforeResponse, .recovers(newSessions: 0)),
      Cell(.listen, .resetMidResponse, .recovers(newSessions: 2)),
      Cell(.listen, .truncatedJSON, .recovers(newSessions: 2)),
      Cell(.listen, .invalidJSON, .recovers(newSessions: 2)),
      Cell(.listen, .wrongContentType, .recovers(newSessions: 2)),
      Cell(.listen, .emptyBody, .recovers(newSessions: 0)),
      Cell(.listen, .unauthenticated401, .recovers(newSessions: 2)),
      Cell(.listen, .oversizedReply, .recovers(newSessions: 2)),
    ]

  /// A read's cells: reads are idempotent, so every transient fault is retried and the
  /// second retry gets through, whichever read it is. The reads are `get` (`GET
  /// …/documents/m/d`), `batchGet` (getAll), `runQueryStream` (stream(), retried as a whole
  /// until its first element arrived) and `aggregation` (count).
  static func readCells(_ call: Cell.Call) -> [Cell] {
    [
      Cell(call, .delayPastDeadline, .fails(.deadlineExceeded, requests: 1)),
      Cell(call, .unavailable503, .succeedsAfterRetry(requests: 3)),
      Cell(call, .resourceExhausted429, .succeedsAfterRetry(requests: 3)),
      Cell(call, .internal500, .succeedsAfterRetry(requests: 3)),
      Cell(call, .badGateway502, .succeedsAfterRetry(requests: 3)),
      Cell(call, .resetBeforeResponse, .succeedsAfterRetry(requests: 3)),
      Cell(call, .resetMidResponse, .succeedsAfterRetry(requests: 3)),
      Cell(call, .truncatedJSON, .succeedsAfterRetry(requests: 3)),
      Cell(call, .invalidJSON, .succeedsAfterRetry(requests: 3)),
      Cell(call, .wrongContentType, .succeedsAfterRetry(requests: 3)),
      Cell(call, .emptyBody, .succeedsAfterRetry(requests: 3)),
      Cell(call, .unauthenticated401, .fails(.unauthenticated, requests: 2)),
      // The same reply would be as large again: not asked for twice.
      Cell(call, .oversizedReply, .fails(.resourceExhausted, requests: 1)),
    ]
  }

  /// The per-call deadline of the cells whose fault is not a delay (their calls end by
  /// themselves well before it), and the first one of the delay cells, which is doubled
  /// until it lets the delayed request reach the server: the deadline is wall-clock time
  /// kept by the transport's own thread, and a busy machine can hold a request back longer
  /// than any fixed figure.
  static let deadline: Duration = hangLimit
  static let firstDelayDeadline: Duration = .milliseconds(250)
  /// A cell with no outcome this long after its deadline hangs.
  static let hangAllowance: Duration = .seconds(15)

  @Test("the matrix covers every call under every fault, once")
  func complete() {
    let keys = Self.cells.map { "\($0.call.rawValue) \($0.fault.rawValue)" }
    #expect(Set(keys).count == keys.count)
    #expect(keys.count == Cell.Call.allCases.count * Cell.Fault.allCases.count)
    for cell in Self.cells where cell.call == .commit || cell.call == .transaction {
      #expect(cell.applied != nil, "\(cell.testDescription) must state what the database shows")
    }
  }

  @Test("cell", arguments: cells)
  func cell(_ cell: Cell) async throws {
    guard cell.fault == .delayPastDeadline else {
      _ = try await run(cell, deadline: Self.deadline)
      return
    }
    try await withGrowingMargin("\(cell.testDescription): the delayed request reaching the server", from: Self.firstDelayDeadline) {
      try await run(cell, deadline: $0)
    }
  }

  /// Runs one cell on a server of its own; ``MarginRun/tooShort`` when `deadline` passed
  /// before the delayed request reached the server (its outcome is still checked).
  private func run(_ cell: Cell, deadline: Duration) async throws -> MarginRun {
    let server = try MockFirestoreServer.start()
    defer { server.stop() }
    let refreshes = Counter()
    let settings = FirestoreSettings.emulator(host: server.hostAndPort)
    settings.retryPolicy.sleep = { _ in }
    // A listen's delay is its back channel's silence (below); its requests keep the usual deadline.
    settings.timeout = cell.call == .listen ? Self.deadline : deadline
    // A pool of its own: what the client sends does not depend on connections other
    // clients left (a listen's requests, never pooled, then always get fresh connections).
    settings.transport = CurlTransport()
    settings.maximumReplyBytes = Cell.Fault.replyLimit
    settings.tokenProvider = ClosureTokenProvider { force in
      if force { refreshes.increment() }
      return "owner"
    }
    let db = Firestore(projectID: "fault-matrix", settings: settings)
    // Seeded by another client, so that the cell's client has nothing cached.
    let seeder = Firestore(projectID: "fault-matrix", settings: .emulator(host: server.hostAndPort))
    try await seeder.document("m/d").setData(["n": 1])
    try await seeder.document("counters/c").setData(["n": 0])

    if cell.call == .listen {
      try await runListen(cell, server: server, db: db, writer: seeder, deadline: deadline)
    } else if try await runCall(cell, server: server, db: db, deadline: deadline) == .tooShort {
      return .tooShort
    }
    if cell.fault == .unauthenticated401 {
      // A call refreshes once, then reports the error; a listener refreshes on each new session.
      let expected = cell.call == .listen ? 2 : 1
      #expect(refreshes.value == expected, "\(cell.testDescription): \(refreshes.value) token refreshes")
    } else {
      #expect(refreshes.value == 0, "\(cell.testDescription): \(refreshes.value) token refreshes")
    }
    return .conclusive
  }

  // MARK: - Calls

  /// Runs a REST call under the cell's fault and checks its outcome, the requests it took
  /// and, for writes, the database afterwards.
  private func runCall(_ cell: Cell, server: MockFirestoreServer, db: Firestore, deadline: Duration) async throws -> MarginRun {
    let runs = Counter()
    let count = { server.requestLog.count(matching: Self.pathSuffix(cell.call), method: cell.call == .get ? "GET" : "POST") }
    let before = count()
    server.faults.add(cell.rule)
    let result = await HangGuard.outcome(within: deadline + Self.hangAllowance) {
      try await Self.perform(cell.call, db: db, runs: runs)
    }
    guard let result else {
      Issue.record("\(cell.testDescription): no outcome within \(deadline + Self.hangAllowance) (a hang)")
      return .conclusive
    }
    let requests = count() - before
    let delayed = cell.fault == .delayPastDeadline
    // The delayed request goes on now, so that a commit's outcome is settled below; a
    // transaction that gave up has rolled back first, and its commit then finds it gone.
    let reachedServer = server.faults.arrivals(at: Cell.Fault.delayHold) > 0
    if delayed && reachedServer && cell.call == .transaction {
      try await eventually("the transaction's rollback") { server.requestLog.count(matching: ":rollback") > 0 }
    }
    server.faults.release(Cell.Fault.delayHold)
    if delayed && !reachedServer {
      // The deadline passed before the request reached the server: what the caller got
      // is still checked, the rest only with a longer deadline.
      let error: FirestoreError? = if case .failure(let failure) = result { failure as? FirestoreError } else { nil }
      #expect(error?.code == .deadlineExceeded, "\(cell.testDescription): \(result)")
      #expect(error?.message.contains(cell.fault.namedIn) == true, "\(cell.testDescription): \(result)")
      return .tooShort
    }
    switch (cell.outcome, result) {
    case (.succeedsAfterRetry(let expected), .success(let value)):
      #expect(value == Self.expectedResult(cell.call), "\(cell.testDescription): wrong result")
      #expect(requests == expected, "\(cell.testDescription): \(requests) requests")
    case (.fails(let code, let expected), .failure(let error)):
      guard let error = error as? FirestoreError else {
        Issue.record("\(cell.testDescription): an untyped error \(type(of: error)): \(error)")
        return .conclusive
      }
      #expect(error.code == code, "\(cell.testDescription): \(error)")
      #expect(error.message.contains(cell.fault.namedIn), "\(cell.testDescription): the message does not name the problem: \(error)")
      #expect(requests == expected, "\(cell.testDescription): \(requests) requests")
      // A write whose outcome is open says so; one refused outright does not.
      if cell.applied != nil {
        let open = RetryClass.leavesOutcomeOpen(code)
        #expect(error.message.contains("may or may not have been applied") == open, "\(cell.testDescription): \(error)")
      }
    case (_, .success(let value)):
      Issue.record("\(cell.testDescription): succeeded (\(value)) after \(requests) requests; expected \(cell.outcome)")
    case (_, .failure(let error)):
      Issue.record("\(cell.testDescription): failed after \(requests) requests with \(error); expected \(cell.outcome)")
    }
    if cell.call == .transaction {
      // Once per commit sent: a re-run only when the last commit applied nothing.
      let expected = if case .succeedsAfterRetry(let commits) = cell.outcome { commits } else { 1 }
      #expect(runs.value == expected, "\(cell.testDescription): the body ran \(runs.value) times")
    }
    if let applied = cell.applied {
      server.faults.removeAll()
      // A delayed commit is handled after the caller gave up: wait until the server chose a response.
      let settled = await HangGuard.outcome(within: Self.hangAllowance) {
        while server.requestLog.entries.contains(where: { $0.path.hasSuffix(":commit") && $0.status == nil }) {
          try await Task.sleep(for: .milliseconds(10))
        }
        return ""
      }
      #expect(settled != nil, "\(cell.testDescription): a commit was never handled")
      // Read by a client of its own: the cell's deadline may be a delay cell's short one.
      let checker = Firestore(projectID: "fault-matrix", settings: .emulator(host: server.hostAndPort))
      let n = try await checker.document("counters/c").getDocument(source: .server).get("n") as? Int
      #expect(n == (applied == .once ? 1 : 0), "\(cell.testDescription): the counter is \(n.map(String.init) ?? "missing")")
    }
    return .conclusive
  }

  private static func pathSuffix(_ call: Cell.Call) -> String {
    switch call {
    case .get: return "/documents/m/d"
    case .batchGet: return ":batchGet"
    case .runQueryStream: return ":runQuery"
    case .aggregation: return ":runAggregationQuery"
    case .commit, .transaction, .listen: return ":commit"
    }
  }

  /// What each call returns when it succeeds.
  private static func expectedResult(_ call: Cell.Call) -> String {
    switch call {
    case .get: return "n=1"
    case .batchGet: return "n=1, missing"
    case .runQueryStream: return "d"
    case .aggregation: return "count=1"
    case .commit: return "committed"
    case .transaction: return "1"
    case .listen: return ""
    }
  }

  /// Makes the call and describes its result.
  private static func perform(_ call: Cell.Call, db: Firestore, runs: Counter) async throws -> String {
    switch call {
    case .get:
      let snapshot = try await db.document("m/d").getDocument(source: .server)
      return "n=\(snapshot.get("n") as? Int ?? -1)"
    case .batchGet:
      let snapshots = try await db.getAll([db.document("m/d"), db.document("m/missing")])
      return "n=\(snapshots[0].get("n") as? Int ?? -1), \(snapshots[1].exists ? "exists" : "missing")"
    case .runQueryStream:
      var ids: [String] = []
      for try await document in db.collection("m").stream() { ids.append(document.documentID) }
      return ids.joined(separator: ",")
    case .aggregation:
      return "count=\(try await db.collection("m").count.getAggregation().count)"
    case .commit:
      try await db.document("counters/c").updateData(["n": FieldValue.increment(Int64(1))])
      return "committed"
    case .transaction:
      let counter = db.document("counters/c")
      let n = try await db.runTransaction { tx in
        runs.increment()
        let n = try await tx.getDocument(counter).get("n") as? Int ?? -1
        tx.updateData(["n": n + 1], forDocument: counter)
        return n + 1
      }
      return "\(n)"
    case .listen:
      return ""
    }
  }

  // MARK: - Listen

  /// Listens to collection `m`, has the server end the back channel so that the client
  /// reopens it into the fault, writes one document while the fault acts and one after,
  /// and checks that the listener saw each exactly once.
  private func runListen(_ cell: Cell, server: MockFirestoreServer, db: Firestore, writer: Firestore, deadline: Duration) async throws {
    // A back channel held silent is given up after this and opened again.
    if cell.fault == .delayPastDeadline { await db.listenManager.setBackChannelSilence(max(deadline, .seconds(1))) }
    let limit = Self.deadline + Self.hangAllowance
    let collector = SequenceCollector(db.collection("m").snapshots)
    var replica = ListenReplica(field: "n")
    replica.apply(try await collector.next(timeout: limit))
    #expect(replica.documents == ["d": 1])
    let handshakes = {
      server.requestLog.entries.filter { $0.method == "POST" && $0.path.hasSuffix("/Listen/channel") && !$0.query.contains("SID=") }.count
    }
    let before = handshakes()

    server.faults.add(cell.rule)
    server.endListenBackChannels()
    try await writer.document("m/during").setData(["n": 2])
    while replica.documents["during"] == nil { replica.apply(try await collector.next(timeout: limit)) }
    #expect(server.faults.rules.isEmpty, "\(cell.testDescription): the fault was not met twice")
    try await writer.document("m/after").setData(["n": 3])
    while replica.documents["after"] == nil { replica.apply(try await collector.next(timeout: limit)) }

    #expect(replica.violations.isEmpty, "\(cell.testDescription): \(replica.violations)")
    #expect(replica.added == ["d": 1, "during": 1, "after": 1], "\(cell.testDescription): \(replica.added)")
    #expect(replica.documents == ["d": 1, "during": 2, "after": 3])
    if case .recovers(let sessions) = cell.outcome {
      #expect(handshakes() - before == sessions, "\(cell.testDescription): \(handshakes() - before) new sessions")
    }
    collector.cancel()
  }
}
