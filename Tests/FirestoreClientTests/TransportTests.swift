import FirestorePlatform
import FirestoreTestSupport
import FirestoreWire
import Foundation
import Testing

@testable import FirestoreClient

private let doc1 =
  #"{"name":"projects/p/databases/(default)/documents/c/d1","fields":{"v":{"integerValue":"1"}},"createTime":"2024-01-01T00:00:00Z","updateTime":"2024-01-01T00:00:00Z"}"#
private let commitOK = #"{"writeResults":[{"updateTime":"2024-01-01T00:00:01Z"}],"commitTime":"2024-01-01T00:00:01Z"}"#
private let unavailable = ScriptedTransport.Response.json(503, #"{"error":{"code":503,"message":"try later","status":"UNAVAILABLE"}}"#)

@Suite("Scripted transport, retries and error mapping")
struct TransportTests {
  @Test("reads retry on UNAVAILABLE and succeed")
  func readRetries() async throws {
    let transport = ScriptedTransport([
      .init(method: "GET", path: Offline.root + "/c/d1", response: unavailable),
      .init(method: "GET", path: Offline.root + "/c/d1", response: unavailable),
      .init(method: "GET", path: Offline.root + "/c/d1", response: .json(200, doc1)),
    ])
    let snapshot = try await Offline.firestore(transport).document("c/d1").getDocument()
    #expect(snapshot.get("v") as? Int == 1)
    #expect(transport.unmetExpectations.isEmpty)
  }

  /// A transport that keeps deadlines gets each call's deadline on the request, through the
  /// instance's network gate, instead of the client racing the call against a timer task.
  @Test("a transport that keeps deadlines is handed them on the request")
  func deadlineGoesToTheTransport() async throws {
    final class KeepsDeadlines: Transport {
      let base: ScriptedTransport
      let deadlines = Locked<[ContinuousClock.Instant?]>([])
      init(_ base: ScriptedTransport) { self.base = base }
      var enforcesDeadlines: Bool { true }
      func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        deadlines.withLock { $0.append(request.deadline) }
        return try await base.send(request)
      }
    }
    let transport = KeepsDeadlines(ScriptedTransport([.init(method: "GET", path: Offline.root + "/c/d1", response: .json(200, doc1))]))
    let before = ContinuousClock.now
    _ = try await Offline.firestore(transport).document("c/d1").getDocument()
    let deadlines = transport.deadlines.withLock { $0 }
    #expect(deadlines.count == 1)
    let deadline = try #require(deadlines.first ?? nil, "the request carried no deadline")
    #expect(deadline > before && deadline <= ContinuousClock.now + .seconds(60))
  }

  @Test("every read goes to its own document's URL, also past the number of URLs the client keeps made")
  func eachReadItsOwnURL() async throws {
    /// Answers every GET with the document its path names, and keeps the paths.
    final class Mirror: Transport {
      let paths = Locked<[String]>([])
      func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let path = request.url.path
        paths.withLock { $0.append(path) }
        let name = String(path.dropFirst("/v1/".count))
        let body = #"{"name":"\#(name)","fields":{},"createTime":"2024-01-01T00:00:00Z","updateTime":"2024-01-01T00:00:00Z"}"#
        return HTTPResponse(status: 200, headers: ["content-type": "application/json"], body: Data(body.utf8))
      }
    }
    let transport = Mirror()
    let db = Offline.firestore(transport)
    // More documents than the client keeps URLs for, then the first ones again.
    let ids = (0..<300).map { "d\($0)" } + (0..<5).map { "d\($0)" }
    for id in ids { #expect(try await db.collection("c").document(id).getDocument().documentID == id) }
    #expect(transport.paths.withLock { $0 } == ids.map { Offline.root + "/c/" + $0 })
  }

  @Test("reads give up after maximumAttempts with the last error")
  func readGivesUp() async throws {
    let transport = ScriptedTransport(Array(repeating: .init(method: "GET", path: Offline.root + "/c/d1", response: unavailable), count: 3))
    let error = try await #require(throws: FirestoreError.self) {
      try await Offline.firestore(transport, retries: 3).document("c/d1").getDocument()
    }
    #expect(error.code == .unavailable && error.message == "try later" && error.httpStatus == 503)
    #expect(transport.requests.count == 3)
  }

  @Test("a request the server refuses for its size is not retried")
  func sizeRefusalIsFinal() async throws {
    let refusal = ScriptedTransport.Response.json(
      429, #"{"error":{"code":429,"message":"gRPC message exceeds maximum size 4194304: 5038033","status":"RESOURCE_EXHAUSTED"}}"#)
    let transport = ScriptedTransport([.init(method: "GET", path: Offline.root + "/c/d1", response: refusal)])
    let error = try await #require(throws: FirestoreError.self) {
      try await Offline.firestore(transport).document("c/d1").getDocument()
    }
    #expect(error.code == .resourceExhausted && error.requestTooLarge)
    #expect(transport.requests.count == 1)
  }

  @Test("the per-call timeout bounds retries and backoff together")
  func deadlineCoversRetries() async throws {
    func run(initialBackoff: Duration, timeout: Duration) async throws -> (FirestoreError, Int) {
      let transport = ScriptedTransport(
        Array(repeating: .init(method: "GET", path: Offline.root + "/c/d1", response: unavailable), count: 5))
      let settings = FirestoreSettings.emulator(host: "127.0.0.1:1")
      settings.transport = transport
      settings.timeout = timeout
      settings.retryPolicy = RetryPolicy(maximumAttempts: 5, initialBackoff: initialBackoff, maximumBackoff: initialBackoff)
      settings.retryPolicy.jitter = { $0 }
      settings.retryPolicy.sleep = { _ in }
      let db = Firestore(projectID: "p", settings: settings)
      let error = try await #require(throws: FirestoreError.self) { try await db.document("c/d1").getDocument() }
      return (error, transport.requests.count)
    }
    // The timeout is real time. A run counts once its attempts were done before it passed
    // (the call then ends with the server's error, not a deadline error).
    // A retry that could only start after the deadline is not tried: the server's own
    // error is reported at once, not a deadline error later.
    try await withGrowingMargin("one attempt within the timeout") { timeout in
      let (late, lateCount) = try await run(initialBackoff: timeout * 3, timeout: timeout)
      #expect(late.code == .unavailable || late.code == .deadlineExceeded, "\(late)")
      #expect(lateCount <= 1, "\(late) after \(lateCount) attempts")
      return late.code == .unavailable ? .conclusive : .tooShort
    }
    // Backoffs that fit are all taken.
    try await withGrowingMargin("five attempts within the timeout") { timeout in
      let (quick, quickCount) = try await run(initialBackoff: .milliseconds(1), timeout: timeout)
      #expect(quick.code == .unavailable || quick.code == .deadlineExceeded, "\(quick)")
      #expect(quickCount <= 5)
      return quick.code == .unavailable && quickCount == 5 ? .conclusive : .tooShort
    }
  }

  @Test("a transport that ignores cancellation cannot hold a call past its deadline")
  func stuckTransport() async throws {
    /// Ignores cancellation, as a wedged connection might: only `release()` ends a send.
    final class StuckTransport: Transport {
      private let state = Locked((enteredInTime: 0, released: 0, isOpen: false, held: [CheckedContinuation<Void, Never>]()))
      /// Sends that began before the call's deadline cancelled them.
      var enteredInTime: Int { state.withLock { $0.enteredInTime } }
      var released: Int { state.withLock { $0.released } }
      func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let inTime = !Task.isCancelled
        await withCheckedContinuation { continuation in
          let isOpen = state.withLock { state in
            if inTime { state.enteredInTime += 1 }
            if !state.isOpen { state.held.append(continuation) }
            return state.isOpen
          }
          if isOpen { continuation.resume() }
        }
        state.withLock { $0.released += 1 }
        throw FirestoreError(.unavailable, "released")
      }
      func release() {
        let held = state.withLock { state in
          state.isOpen = true
          defer { state.held = [] }
          return state.held
        }
        for continuation in held { continuation.resume() }
      }
    }
    // The deadline is real time; a run counts once the request reached the transport
    // before it passed (a send that starts later starts cancelled).
    try await withGrowingMargin("the request reaching the transport before the deadline", from: .milliseconds(100)) { timeout in
      let transport = StuckTransport()
      let settings = FirestoreSettings.emulator(host: "127.0.0.1:1")
      settings.transport = transport
      settings.timeout = timeout
      settings.retryPolicy = .none
      let error = try await #require(throws: FirestoreError.self) {
        try await Firestore(projectID: "p", settings: settings).document("c/d").getDocument()
      }
      #expect(error.code == .deadlineExceeded)
      // The call returned while the transport was still stuck; it ends only now.
      #expect(transport.released == 0)
      let reached = transport.enteredInTime == 1
      transport.release()
      guard reached else { return .tooShort }
      try await eventually("the stuck send to end once released") { transport.released == 1 }
      return .conclusive
    }
  }

  @Test("a non-idempotent commit is not retried on UNAVAILABLE (it may have landed)")
  func incrementNotRetried() async throws {
    let transport = ScriptedTransport([.init(method: "POST", path: Offline.root + ":commit", response: unavailable)])
    let db = Offline.firestore(transport)
    await #expect(throws: FirestoreError.self) { try await db.document("c/d").updateData(["n": FieldValue.increment(1)]) }
    #expect(transport.requests.count == 1)
  }

  @Test("an idempotent commit is retried, and any commit is retried on ABORTED")
  func commitRetries() async throws {
    let aborted = ScriptedTransport.Response.json(409, #"{"error":{"code":409,"message":"Transaction lock timeout.","status":"ABORTED"}}"#)
    let transport = ScriptedTransport([
      .init(method: "POST", path: Offline.root + ":commit", response: unavailable),
      .init(method: "POST", path: Offline.root + ":commit", response: .json(200, commitOK)),
      .init(method: "POST", path: Offline.root + ":commit", response: aborted),
      .init(method: "POST", path: Offline.root + ":commit", response: .json(200, commitOK)),
    ])
    let db = Offline.firestore(transport)
    let result = try await db.document("c/d").setData(["a": 1])
    #expect(result.updateTime == Timestamp(seconds: 1_704_067_201, nanoseconds: 0))
    try await db.document("c/d").updateData(["n": FieldValue.increment(1)])
    #expect(transport.unmetExpectations.isEmpty)
  }

  @Test("a commit reply of the wrong shape is an error that names it; a write that may not go twice is sent once")
  func malformedCommitReply() async throws {
    let reply = #"{"writeResults":[1],"commitTime":"2024-01-01T00:00:01Z"}"#
    let transport = ScriptedTransport([.init(method: "POST", path: Offline.root + ":commit", response: .json(200, reply))])
    let db = Offline.firestore(transport)
    let error = try await #require(throws: FirestoreError.self) { try await db.document("c/d").updateData(["n": FieldValue.increment(1)]) }
    #expect(error.code == .internal)
    #expect(error.message.contains("CommitResponse.writeResults[] must be a JSON object"))
    #expect(error.message.contains("may or may not have been applied"))
    #expect(transport.requests.count == 1)
  }

  @Test("a refused connection is retried even for non-idempotent writes")
  func connectionRefusedRetried() async throws {
    let refused = FirestoreError(.unavailable, "cannot connect").with { $0.requestNotSent = true }
    let transport = ScriptedTransport([
      .init(method: "POST", path: Offline.root + ":commit", response: .failure(refused)),
      .init(method: "POST", path: Offline.root + ":commit", response: .json(200, commitOK)),
    ])
    try await Offline.firestore(transport).document("c/d").updateData(["n": FieldValue.increment(1)])
    #expect(transport.unmetExpectations.isEmpty)
  }

  @Test("UNAUTHENTICATED refreshes the token once and retries")
  func tokenRefresh() async throws {
    let asked = Locked<[Bool]>([])
    let transport = ScriptedTransport([
      .init(
        method: "GET", path: Offline.root + "/c/d1",
        response: .json(401, #"{"error":{"code":401,"message":"expired","status":"UNAUTHENTICATED"}}"#)),
      .init(method: "GET", path: Offline.root + "/c/d1", response: .json(200, doc1)),
    ])
    let settings = FirestoreSettings.emulator(host: "127.0.0.1:1")
    settings.transport = transport
    settings.tokenProvider = ClosureTokenProvider { force in
      asked.withLock { $0.append(force) }
      return force ? "fresh" : "stale"
    }
    _ = try await Firestore(projectID: "p", settings: settings).document("c/d1").getDocument()
    #expect(asked.withLock { $0 } == [false, true])
    #expect(transport.requests.map { $0.headers["Authorization"] } == ["Bearer stale", "Bearer fresh"])
  }

  @Test("a read reply naming another document is refused, and not cached")
  func replyNamingAnotherDocument() async throws {
    let other = #"{"name":"projects/p/databases/(default)/documents/c/other","fields":{"x":{"integerValue":"1"}}}"#
    let transport = ScriptedTransport([
      .init(method: "GET", path: Offline.root + "/c/asked", response: .json(200, other)),
      .init(method: "POST", path: Offline.root + ":batchGet", response: .json(200, "[{\"found\":\(other)}]")),
      .init(
        method: "POST", path: Offline.root + ":batchGet",
        response: .json(200, #"[{"missing":"projects/p/databases/(default)/documents/c/other"}]"#)),
    ])
    let db = Offline.firestore(transport, retries: 1)
    let get = try await #require(throws: FirestoreError.self) { try await db.document("c/asked").getDocument(source: .server) }
    #expect(get.code == .internal && get.message.contains("documents/c/other"), "\(get)")
    let found = try await #require(throws: FirestoreError.self) { try await db.getAll([db.document("c/asked")]) }
    #expect(found.code == .internal && found.message.contains("documents/c/other"), "\(found)")
    let missing = try await #require(throws: FirestoreError.self) { try await db.getAll([db.document("c/asked")]) }
    #expect(missing.code == .internal && missing.message.contains("documents/c/other"), "\(missing)")
    // Nothing of the other document reached the cache.
    await #expect(throws: FirestoreError.self) { try await db.document("c/other").getDocument(source: .cache) }
  }

  @Test("a batchGet reply split over requests may name only the documents of its own request; duplicates are asked once")
  func splitReplyNamesOnlyItsOwnDocuments() async throws {
    let name = { (id: String) in "projects/p/databases/(default)/documents/c/\(id)" }
    let document = { (id: String) in #"{"name":"\#(name(id))","fields":{"v":{"integerValue":"1"}}}"# }
    let transport = ScriptedTransport([
      // Each request asks for one document; the first reply names the other one.
      .init(method: "POST", path: Offline.root + ":batchGet", response: .json(200, "[{\"found\":\(document("b"))}]")),
      .init(method: "POST", path: Offline.root + ":batchGet", response: .json(200, "[{\"found\":\(document("a"))}]")),
      .init(method: "POST", path: Offline.root + ":batchGet", response: .json(200, "[{\"missing\":\"\(name("b"))\"}]")),
    ])
    let db = Offline.firestore(transport, retries: 1)
    let (a, b) = (db.document("c/a"), db.document("c/b"))
    let refused = try await #require(throws: FirestoreError.self) {
      try await db.batchGet([a, b], fieldMask: nil, consistency: nil, chunkSize: 1)
    }
    #expect(refused.code == .internal && refused.message.contains("names document \(name("b")), not \(name("a"))"), "\(refused)")
    let snapshots = try await db.batchGet([a, b, a], fieldMask: nil, consistency: nil, chunkSize: 1)
    #expect(snapshots.map(\.documentID) == ["a", "b", "a"])
    #expect(snapshots.map(\.exists) == [true, false, true])
    #expect(transport.unmetExpectations.isEmpty, "the duplicate was asked for again")
  }

  @Test("a reply that a document is missing, or a complete result without it, leaves a version cached from after its read time")
  func removalsKeepLaterCachedVersions() async throws {
    let name = "projects/p/databases/(default)/documents/c/d"
    let document = #"{"name":"\#(name)","fields":{"x":{"integerValue":"1"}},"updateTime":"2024-01-01T00:00:10Z"}"#
    let empty = { (seconds: String) in #"[{"readTime":"2024-01-01T00:00:\#(seconds)Z"}]"# }
    let transport = ScriptedTransport([
      .init(
        method: "POST", path: Offline.root + ":batchGet",
        response: .json(200, #"[{"found":\#(document),"readTime":"2024-01-01T00:00:11Z"}]"#)),
      .init(
        method: "POST", path: Offline.root + ":batchGet",
        response: .json(200, #"[{"missing":"\#(name)","readTime":"2024-01-01T00:00:05Z"}]"#)),
      .init(method: "POST", path: Offline.root + ":runQuery", response: .json(200, empty("05"))),
      .init(method: "POST", path: Offline.root + ":runQuery", response: .json(200, empty("12"))),
    ])
    let db = Offline.firestore(transport)
    let ref = db.document("c/d")
    _ = try await db.getAll([ref])
    // Missing as of 5 s, and left out of a result read at 5 s: the version of 10 s came after.
    #expect(try await db.getAll([ref]).first?.exists == false)
    #expect(try await ref.getDocument(source: .cache).exists)
    #expect(try await db.collection("c").getDocuments().isEmpty)
    #expect(try await ref.getDocument(source: .cache).exists)
    // Left out of a result read at 12 s: gone.
    _ = try await db.collection("c").getDocuments()
    await #expect(throws: FirestoreError.self) { try await ref.getDocument(source: .cache) }
    #expect(transport.unmetExpectations.isEmpty)
  }

  @Test("non-JSON and malformed responses become clear errors")
  func malformedResponses() async throws {
    let transport = ScriptedTransport([
      .init(method: "GET", path: Offline.root + "/c/d1", response: .json(404, "Not Found")),
      .init(method: "GET", path: Offline.root + "/c/d1", response: .json(200, "{not json")),
      .init(
        method: "POST", path: Offline.root + ":runQuery",
        response: .json(200, #"[{"document":{"name":"projects/p/databases/(default)/documents/c/a"}}"#)),
      .init(method: "POST", path: Offline.root + ":batchGet", response: .json(200, #"{"oops":true}"#)),
      .init(
        method: "GET", path: Offline.root + "/c/d2",
        response: .json(
          502,
          "<!DOCTYPE html><html><head><style>p{margin:0}</style><script>x()</script><title>Error 502</title></head>"
            + "<body><p><b>502.</b> That is an error.</p></body></html>")),
      .init(method: "GET", path: Offline.root + "/c/d3", response: .json(200, #"{"name":"projects/p/databases/(default)/docu"#)),
      .init(method: "GET", path: Offline.root + "/c/d4", response: .json(200, "")),
    ])
    let db = Offline.firestore(transport, retries: 1)
    let notFound = try await #require(throws: FirestoreError.self) { try await db.document("c/d1").getDocument() }
    #expect(notFound.code == .notFound && notFound.message == "Not Found")  // an unknown URL, not a missing document
    let garbage = try await #require(throws: FirestoreError.self) { try await db.document("c/d1").getDocument() }
    #expect(garbage.code == .internal && garbage.message.contains("not valid JSON") && garbage.message.contains("it starts: {not json"))
    let truncated = try await #require(throws: FirestoreError.self) { for try await _ in db.collection("c").stream() {} }
    #expect(truncated.code == .unavailable && truncated.message.contains("ended before"))
    let shape = try await #require(throws: FirestoreError.self) { try await db.getAll([db.document("c/x")]) }
    #expect(shape.code == .internal)
    // A load balancer's page: its text, without markup, style sheet or script.
    let page = try await #require(throws: FirestoreError.self) { try await db.document("c/d2").getDocument(source: .server) }
    #expect(page.code == .unavailable)
    #expect(page.message == "HTTP 502 with an HTML page instead of a Firestore error: Error 502 502. That is an error.")
    // JSON cut short did not arrive whole (unavailable); an empty body is not Firestore's reply (internal).
    let cut = try await #require(throws: FirestoreError.self) { try await db.document("c/d3").getDocument(source: .server) }
    #expect(cut.code == .unavailable && cut.message.contains("cut short"))
    let empty = try await #require(throws: FirestoreError.self) { try await db.document("c/d4").getDocument(source: .server) }
    #expect(empty.code == .internal && empty.message.contains("empty body"))
  }

  @Test("runQuery is parsed as the bytes arrive")
  func incrementalParsing() async throws {
    let body =
      "["
      + (0..<50).map { i in
        #"{"document":{"name":"projects/p/databases/(default)/documents/c/d\#(i)","fields":{"i":{"integerValue":"\#(i)"}},"createTime":"2024-01-01T00:00:00Z","updateTime":"2024-01-01T00:00:00Z"},"readTime":"2024-01-01T00:00:00Z"}"#
      }.joined(separator: ",") + "]"
    let transport = ScriptedTransport([.init(method: "POST", path: Offline.root + ":runQuery", response: .json(200, body, chunkSize: 7))])
    var seen: [Int] = []
    for try await document in Offline.firestore(transport).collection("c").stream() {
      seen.append(document.get("i") as? Int ?? -1)
    }
    #expect(seen == Array(0..<50))
  }

  @Test("an unexpected request fails with a got/want diff")
  func gotWantDiff() async throws {
    let transport = ScriptedTransport([
      .init(method: "POST", path: Offline.root + ":commit", body: #"{"writes":[]}"#, response: .json(200, "{}"))
    ])
    let db = Offline.firestore(transport, retries: 1)
    // A `create`: a queued write that may not be sent twice fails with the transport's
    // error (an idempotent one would wait in the queue and be sent again).
    let error = try await #require(throws: FirestoreError.self) { try await db.document("c/d").create(["a": 1]) }
    #expect(error.message.contains("got:") && error.message.contains("want:") && error.message.contains("body"))
  }

  @Test("an empty or slash-bearing project ID fails every call, naming it")
  func badProjectID() async throws {
    for project in ["", "a/b", "has space"] {
      let transport = ScriptedTransport([])
      let settings = FirestoreSettings.emulator(host: "127.0.0.1:1")
      settings.transport = transport
      let db = Firestore(projectID: project, settings: settings)
      let error = try await #require(throws: FirestoreError.self) { try await db.document("c/d").getDocument() }
      #expect(error.code == .invalidArgument && error.message.contains("project ID"))
      #expect(transport.requests.isEmpty)
    }
  }

  @Test("invalid input sends no request")
  func nothingSent() async throws {
    let (db, transport) = Offline.noNetwork()
    await #expect(throws: FirestoreError.self) { try await db.collection("c").document("a/b").setData(["x": 1]) }
    await #expect(throws: FirestoreError.self) { try await db.collection("c").whereField("x", in: Array(0..<31)).getDocuments() }
    await #expect(throws: FirestoreError.self) {
      try await db.document("c/d").setData(["x": Double.nan, "y": GeoPoint(latitude: 100, longitude: 0)])
    }
    #expect(transport.requests.isEmpty)
  }

  /// A server or proxy that echoes the request's Authorization header into its error reply
  /// (a debugging page, a JSON body quoting what it refused, a transport's own message):
  /// the token must not reach the error the app logs.
  @Test("an error reply that echoes the bearer token does not carry it into the error")
  func echoedTokenIsRedacted() async throws {
    let token = "ya29.a0-echoed-bearer-token"
    let transport = ScriptedTransport([
      .init(
        method: "GET", path: Offline.root + "/c/d1",
        response: .json(
          401, #"{"error":{"code":401,"message":"token Bearer \#(token) is not valid","status":"UNAUTHENTICATED"}}"#)),
      .init(
        method: "GET", path: Offline.root + "/c/d1",
        response: .json(
          401, #"{"error":{"code":401,"message":"token \#(token) is still not valid","status":"UNAUTHENTICATED"}}"#)),
      .init(
        method: "GET", path: Offline.root + "/c/d2",
        response: .json(500, "<html><title>Oops</title><body>Authorization: Bearer \(token)</body></html>")),
      .init(method: "GET", path: Offline.root + "/c/d3", response: .json(503, "upstream said: Bearer \(token)")),
      .init(
        method: "GET", path: Offline.root + "/c/d4",
        response: .failure(FirestoreError(.unavailable, "connection reset while sending Authorization: Bearer \(token)"))),
    ])
    let settings = FirestoreSettings.emulator(host: "127.0.0.1:1")
    settings.transport = transport
    settings.tokenProvider = StaticTokenProvider(token)
    settings.retryPolicy = RetryPolicy(maximumAttempts: 1)
    let db = Firestore(projectID: "p", settings: settings)
    for path in ["c/d1", "c/d2", "c/d3", "c/d4"] {
      let error = try await #require(throws: FirestoreError.self) { try await db.document(path).getDocument(source: .server) }
      for text in [error.message, error.description, String(reflecting: error)] {
        #expect(!text.contains(token), "\(path): \(text)")
      }
      #expect(error.message.contains("<redacted>"), "\(path): \(error.message)")
    }
    #expect(transport.unmetExpectations.isEmpty)
  }

  /// Answers a query with one document, then breaks off with an error that echoes the
  /// request's token.
  struct EchoingBreakTransport: Transport {
    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
      let token = request.headers["Authorization"] ?? ""
      let (body, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
      continuation.yield(Data(#"[{"document":{"name":"projects/p/databases/(default)/documents/c/a","fields":{}}},"#.utf8))
      continuation.finish(throwing: FirestoreError(.unavailable, "connection reset after sending \(token)"))
      return HTTPResponse(status: 200, headers: ["content-type": "application/json"], body: body)
    }
  }

  @Test("a streamed reply that breaks off after its first document does not show the request's token either")
  func echoedTokenAfterTheFirstElement() async throws {
    let token = "ya29.a0-echoed-in-the-stream"
    let settings = FirestoreSettings.emulator(host: "127.0.0.1:1")
    settings.transport = EchoingBreakTransport()
    settings.tokenProvider = StaticTokenProvider(token)
    settings.cache = .none
    // The break itself ends the stream: no asking again for the rest.
    settings.retryPolicy = .none
    let db = Firestore(projectID: "p", settings: settings)
    var documents = 0
    let error = try await #require(throws: FirestoreError.self) {
      for try await _ in db.collection("c").stream() { documents += 1 }
    }
    #expect(documents == 1)
    for text in [error.message, error.description, String(reflecting: error)] {
      #expect(!text.contains(token), "\(text)")
    }
    #expect(error.message.contains("<redacted>"), "\(error.message)")
  }
}

@Suite("Retry policy")
struct RetryPolicyTests {
  @Test("decides by code, idempotency and attempt")
  func decisions() {
    let policy = RetryPolicy(maximumAttempts: 3)
    let unavailable = FirestoreError(.unavailable, "x")
    #expect(policy.shouldRetry(unavailable, attempt: 1, idempotent: true))
    #expect(!policy.shouldRetry(unavailable, attempt: 3, idempotent: true))
    #expect(!policy.shouldRetry(unavailable, attempt: 1, idempotent: false))
    #expect(!policy.shouldRetry(FirestoreError(.notFound, "x"), attempt: 1, idempotent: true))
    #expect(!policy.shouldRetry(FirestoreError(.aborted, "x"), attempt: 1, idempotent: false))
    #expect(policy.shouldRetry(FirestoreError(.aborted, "x"), attempt: 1, idempotent: false, retriesAborted: true))
    for code in [FirestoreError.Code.resourceExhausted, .deadlineExceeded, .internal] {
      #expect(policy.shouldRetry(FirestoreError(code, "x"), attempt: 1, idempotent: true))
    }
    let tooBig = FirestoreError(.resourceExhausted, "gRPC message exceeds maximum size 4194304: 5038033").with {
      $0.requestTooLarge = true
    }
    #expect(!policy.shouldRetry(tooBig, attempt: 1, idempotent: true))
  }

  @Test("backoff grows exponentially up to the cap")
  func backoff() {
    var policy = RetryPolicy(initialBackoff: .milliseconds(100), maximumBackoff: .seconds(1), multiplier: 2)
    policy.maximumAttempts = 10
    #expect(policy.backoffCap(afterAttempt: 1) == .milliseconds(100))
    #expect(policy.backoffCap(afterAttempt: 3) == .milliseconds(400))
    #expect(policy.backoffCap(afterAttempt: 9) == .seconds(1))
  }
}
