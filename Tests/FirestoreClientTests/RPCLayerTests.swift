import FirestorePlatform
import FirestoreWire
import Foundation
import Testing

@testable import FirestoreClient

/// The table of calls, the retry decisions, the one retry loop and the reading of error
/// replies, each on its own: no transport, no server, no clock of real time.
@Suite("RPC layer: the table, retry classes, the loop, error replies")
struct RPCLayerTests {
  @Test("each Firestore call has its REST method, path and retry class")
  func table() {
    let doc = ResourcePath(segments: ["rooms", "r 1"])
    let cases: [(FirestoreRPC, String, String, String, RetryClass)] = [
      (.get(doc), "get", "GET", "documents/rooms/r%201", .idempotent),
      (.batchGet, "batchGet", "POST", "documents:batchGet", .idempotent),
      (.runQuery(parent: .root), "runQuery", "POST", "documents:runQuery", .idempotent),
      (.runQuery(parent: doc), "runQuery", "POST", "documents/rooms/r%201:runQuery", .idempotent),
      (.runAggregationQuery(parent: doc), "runAggregationQuery", "POST", "documents/rooms/r%201:runAggregationQuery", .idempotent),
      (.partitionQuery, "partitionQuery", "POST", "documents:partitionQuery", .idempotent),
      (.list(parent: doc, collectionID: "a/b", query: []), "list", "GET", "documents/rooms/r%201/a%2Fb", .idempotent),
      (.listCollectionIds(parent: .root), "listCollectionIds", "POST", "documents:listCollectionIds", .idempotent),
      (.commit(inTransaction: true, repeatable: true), "commit", "POST", "documents:commit", .atMostOnce),
      (.commit(inTransaction: false, repeatable: false), "commit", "POST", "documents:commit", .commit(repeatable: false)),
      (.batchWrite, "batchWrite", "POST", "documents:batchWrite", .atMostOnce),
      (.beginTransaction, "beginTransaction", "POST", "documents:beginTransaction", .idempotent),
      (.rollback, "rollback", "POST", "documents:rollback", .idempotent),
    ]
    for (rpc, name, method, path, retryClass) in cases {
      #expect(rpc.name == name)
      #expect(rpc.httpMethod == method, "\(name)")
      #expect(rpc.path == path, "\(name)")
      #expect(rpc.retryClass == retryClass, "\(name)")
    }
    #expect(RESTClient.Call(.commit(inTransaction: false, repeatable: true)).idempotent)
    #expect(!RESTClient.Call(.commit(inTransaction: false, repeatable: false)).idempotent)
  }

  @Test("token endpoint requests: method, URL and retry class; a sign-up is never sent twice")
  func tokenEndpoints() throws {
    let oauth = TokenEndpointRPC.oauthToken(URL(string: "https://oauth2.example/token")!, form: [("a", "b c")])
    #expect(oauth.request.method == "POST")
    #expect(oauth.request.body == Data("a=b+c".utf8) || oauth.request.body == Data("a=b%20c".utf8))
    #expect(oauth.retryClass == .idempotent)
    let signUpURL = try TokenEndpointRPC.firebaseAuthURL(.signUp, apiKey: "k", emulatorHost: nil).get()
    #expect(TokenEndpointRPC.firebaseSignIn(.signUp, url: signUpURL, body: .object([])).retryClass == .atMostOnce)
    #expect(TokenEndpointRPC.firebaseSignIn(.signInWithPassword, url: signUpURL, body: .object([])).retryClass == .idempotent)
    let token = try #require(TokenEndpointRPC.metadata(.token(serviceAccount: "a@b", scopes: ["s1", "s2"]), host: "169.254.169.254"))
    #expect(token.request.method == "GET")
    #expect(
      token.request.url.absoluteString
        == "http://169.254.169.254/computeMetadata/v1/instance/service-accounts/a%40b/token?scopes=s1%2Cs2")
    #expect(token.request.headers["Metadata-Flavor"] == "Google")
  }

  @Test("Listen channel requests: method, URL at the host root, one connection each, resent only before the server acted")
  func listenChannel() throws {
    let params = WebChannelURL.handshake(database: "projects/p/databases/d", requestID: 7, zx: "z")
    let handshake = try ListenChannelRPC(.handshake, baseURL: "http://h:1", params: params, body: "count=0")
    #expect(handshake.request.method == "POST" && !handshake.request.isIdempotent)
    #expect(handshake.request.url.absoluteString.hasPrefix("http://h:1/google.firestore.v1.Firestore/Listen/channel?database="))
    #expect(handshake.request.headers["Connection"] == "close")
    #expect(handshake.request.headers["Content-Type"] == "application/x-www-form-urlencoded")
    let back = try ListenChannelRPC(.backChannel, baseURL: "http://h:1", params: params)
    #expect(back.request.method == "GET" && back.request.isIdempotent && back.request.body == nil)
    #expect(try ListenChannelRPC(.forward, baseURL: "http://h:1", params: params, body: "").request.method == "POST")
    #expect(try ListenChannelRPC(.terminate, baseURL: "http://h:1", params: params).request.method == "GET")
    #expect(throws: FirestoreError.self) { try ListenChannelRPC(.terminate, baseURL: "http://h 1", params: params) }

    let codes = RetryPolicy().retryableCodes
    let gateway = handshake.error(status: 502, contentType: "text/html", body: Data("<html>Bad Gateway</html>".utf8))
    #expect(handshake.retryClass.allowsRetry(of: gateway, retryableCodes: codes))
    let serverError = back.error(status: 500, contentType: nil, body: Data())
    #expect(serverError.code == .unavailable && !back.retryClass.allowsRetry(of: serverError, retryableCodes: codes))
    let lost = FirestoreError(.unavailable, "connection reset")
    #expect(back.retryClass.allowsRetry(of: lost, retryableCodes: codes))
    #expect(!handshake.retryClass.allowsRetry(of: lost, retryableCodes: codes))
    #expect(handshake.retryClass.allowsRetry(of: lost.with { $0.requestNotSent = true }, retryableCodes: codes))
    // The server's own words say why a handshake was refused; a gone session is unavailable.
    let denied = handshake.error(
      status: 403, contentType: "application/json",
      body: Data(#"{"error":{"code":403,"message":"API disabled","status":"PERMISSION_DENIED"}}"#.utf8))
    #expect(denied.code == .permissionDenied && denied.message == "the WebChannel handshake answered HTTP 403: API disabled")
    #expect(back.error(status: 401, contentType: nil, body: Data()).code == .unauthenticated)
    #expect(handshake.error(status: 400, contentType: nil, body: Data()).code == .unavailable)
  }

  @Test("retry classes decide by code, by whether the request went out, and by size")
  func classes() {
    let codes = RetryPolicy().retryableCodes
    func allows(_ retryClass: RetryClass, _ error: FirestoreError) -> Bool {
      retryClass.allowsRetry(of: error, retryableCodes: codes)
    }
    let unavailable = FirestoreError(.unavailable, "x")
    let aborted = FirestoreError(.aborted, "x")
    let notSent = unavailable.with { $0.requestNotSent = true }
    #expect(allows(.idempotent, unavailable))
    #expect(!allows(.idempotent, FirestoreError(.notFound, "x")))
    #expect(!allows(.atMostOnce, unavailable))
    #expect(allows(.atMostOnce, notSent))
    #expect(allows(.commit(repeatable: false), aborted))
    #expect(!allows(.commit(repeatable: false), unavailable))
    #expect(allows(.commit(repeatable: true), unavailable))
    #expect(!allows(.idempotent, unavailable.with { $0.replyUnusable = true }))
    #expect(!allows(.atMostOnce, notSent.with { $0.otherUser = true }))
    // A transaction reruns only for its own failures: its calls have retried the rest.
    #expect(allows(.transaction, aborted))
    #expect(allows(.transaction, FirestoreError(.invalidArgument, "x").with { $0.transactionExpired = true }))
    #expect(!allows(.transaction, notSent))
    #expect(!allows(.transaction, FirestoreError(.invalidArgument, "x")))
    #expect(allows(.transaction, FirestoreError(.resourceExhausted, "quota")), "refused for load: nothing committed")
    // A queued batch stays queued when nothing was applied, or when it may be repeated.
    let quota = FirestoreError(.resourceExhausted, "quota")
    #expect(allows(.queuedCommit(repeatable: false), aborted) && allows(.queuedCommit(repeatable: false), quota))
    #expect(!allows(.queuedCommit(repeatable: false), unavailable) && allows(.queuedCommit(repeatable: true), unavailable))
    #expect(!allows(.queuedCommit(repeatable: true), quota.with { $0.requestTooLarge = true }))
    #expect(!allows(.queuedCommit(repeatable: true), FirestoreError(.permissionDenied, "x")))
    #expect(RetryClass.provesNotApplied(quota) && !RetryClass.provesNotApplied(unavailable))
    #expect(RetryClass.leavesOutcomeOpen(.cancelled) && !RetryClass.leavesOutcomeOpen(.permissionDenied))
    // A bulk writer's write: `internal` only for a delete, which cannot apply twice.
    #expect(allows(.bulkWrite(isDelete: false), quota) && allows(.bulkWrite(isDelete: false), aborted))
    #expect(!allows(.bulkWrite(isDelete: false), FirestoreError(.internal, "x")))
    #expect(allows(.bulkWrite(isDelete: true), FirestoreError(.internal, "x")))
    #expect(!allows(.bulkWrite(isDelete: true), FirestoreError(.failedPrecondition, "x")))
  }

  @Test("verdicts: one fresh token for UNAUTHENTICATED, then the schedule; the stream waits longest when overloaded")
  func verdicts() {
    let policy = RetryPolicy(maximumAttempts: 3)
    let refused = FirestoreError(.unauthenticated, "x")
    #expect(
      RetryClass.idempotent.verdict(on: refused, attempt: 1, policy: policy, credentialsRefreshed: false, hasTokenProvider: true)
        == .refreshCredentials)
    #expect(
      RetryClass.idempotent.verdict(on: refused, attempt: 1, policy: policy, credentialsRefreshed: true, hasTokenProvider: true)
        == .fail)
    #expect(
      RetryClass.idempotent.verdict(on: refused, attempt: 1, policy: policy, credentialsRefreshed: false, hasTokenProvider: false)
        == .fail)
    #expect(
      RetryClass.transaction.verdict(on: refused, attempt: 1, policy: policy, credentialsRefreshed: false, hasTokenProvider: true)
        == .fail)
    let unavailable = FirestoreError(.unavailable, "x")
    #expect(
      RetryClass.idempotent.verdict(on: unavailable, attempt: 2, policy: policy, credentialsRefreshed: false, hasTokenProvider: false)
        == .backOff(cap: policy.backoffCap(afterAttempt: 2)))
    #expect(
      RetryClass.idempotent.verdict(on: unavailable, attempt: 3, policy: policy, credentialsRefreshed: false, hasTokenProvider: false)
        == .fail)
    // The stream never gives up, whatever the attempt count.
    #expect(
      RetryClass.stream.verdict(on: unavailable, attempt: 40, policy: policy, credentialsRefreshed: false, hasTokenProvider: false)
        == .backOff(cap: Backoff.stream.maximum))
    #expect(
      RetryClass.stream.verdict(on: unavailable, attempt: 1, policy: policy, credentialsRefreshed: true, hasTokenProvider: true)
        == .backOff(cap: Backoff.stream.initial))
    #expect(
      RetryClass.stream.verdict(
        on: FirestoreError(.resourceExhausted, "x"), attempt: 1, policy: policy, credentialsRefreshed: false, hasTokenProvider: false)
        == .backOff(cap: Backoff.stream.maximum))
    // A transaction waits as the policy says, its longest after an overload.
    let aborted = FirestoreError(.aborted, "x")
    #expect(
      RetryClass.transaction.verdict(on: aborted, attempt: 2, policy: policy, credentialsRefreshed: false, hasTokenProvider: false)
        == .backOff(cap: policy.backoffCap(afterAttempt: 2)))
    #expect(
      RetryClass.transaction.verdict(
        on: FirestoreError(.resourceExhausted, "x"), attempt: 1, policy: policy, credentialsRefreshed: false, hasTokenProvider: false)
        == .backOff(cap: policy.maximumBackoff))
    #expect(
      RetryClass.transaction.verdict(on: aborted, attempt: 3, policy: policy, credentialsRefreshed: false, hasTokenProvider: false)
        == .fail)
  }

  @Test("the loop: refreshes the token once, waits the jittered cap between attempts, stops at the verdict")
  func loop() async throws {
    let waits = Locked<[Duration]>([])
    var policy = RetryPolicy(maximumAttempts: 3, initialBackoff: .milliseconds(100), multiplier: 2)
    policy.jitter = { $0 }
    policy.sleep = { wait in waits.withLock { $0.append(wait) } }
    let loop = RetryLoop(retryClass: .idempotent, policy: policy, hasTokenProvider: true)
    var refreshes: [Bool] = []
    let errors: [FirestoreError] = [
      FirestoreError(.unauthenticated, "a"), FirestoreError(.unavailable, "b"), FirestoreError(.internal, "c"),
    ]
    let error = try await #require(throws: FirestoreError.self) {
      try await loop.run(cancelled: FirestoreError(.cancelled, "x")) { refresh -> Int in
        refreshes.append(refresh)
        let next = errors[min(refreshes.count - 1, errors.count - 1)]
        throw next
      }
    }
    // unauthenticated → at once with a fresh token; unavailable → 100 ms; internal → 200 ms;
    // internal again on the third attempt → the policy's last.
    #expect(refreshes == [false, true, false, false])
    #expect(waits.value == [.milliseconds(100), .milliseconds(200)])
    #expect(error.message == "c")
  }

  @Test("the loop starts no wait that would end past the deadline, and reports the real error")
  func loopDeadline() async throws {
    var policy = RetryPolicy(maximumAttempts: 5, initialBackoff: .seconds(30))
    policy.jitter = { $0 }
    policy.sleep = { _ in Issue.record("no wait may start") }
    let loop = RetryLoop(retryClass: .idempotent, policy: policy, deadline: .now + .seconds(20))
    var attempts = 0
    let error = try await #require(throws: FirestoreError.self) {
      try await loop.run(cancelled: FirestoreError(.cancelled, "x")) { _ -> Int in
        attempts += 1
        throw FirestoreError(.unavailable, "down")
      }
    }
    #expect(attempts == 1)
    #expect(error.message == "down")
  }

  @Test("a wait the caller cancels ends the loop with the caller's cancelled error; errors of other types pass through")
  func loopCancellation() async throws {
    var policy = RetryPolicy()
    policy.sleep = { _ in throw CancellationError() }
    let loop = RetryLoop(retryClass: .idempotent, policy: policy)
    let cancelled = try await #require(throws: FirestoreError.self) {
      try await loop.run(cancelled: FirestoreError(.cancelled, "stopped")) { _ -> Int in throw FirestoreError(.unavailable, "x") }
    }
    #expect(cancelled.code == .cancelled && cancelled.message == "stopped")
    struct Other: Error {}
    await #expect(throws: Other.self) {
      try await loop.run(cancelled: FirestoreError(.cancelled, "x")) { _ -> Int in throw Other() }
    }
  }

  @Test("error replies: code from the body's status, facts read from its text in one place")
  func errorReplies() {
    func reply(_ status: Int, _ code: String, _ message: String) -> FirestoreError {
      let body = #"{"error":{"code":\#(status),"message":"\#(message)","status":"\#(code)"}}"#
      return ErrorReply.error(
        status: status, contentType: "application/json", body: Data(body.utf8), method: "POST", path: "/v1/x:commit")
    }
    let production = reply(400, "INVALID_ARGUMENT", "The referenced transaction has expired or is no longer valid.")
    #expect(production.code == .invalidArgument && production.transactionExpired && production.serverStatus == "INVALID_ARGUMENT")
    #expect(reply(400, "INVALID_ARGUMENT", "Transaction is invalid or closed").transactionExpired)
    #expect(reply(400, "INVALID_ARGUMENT", "Invalid transaction.").transactionExpired)
    #expect(!reply(400, "INVALID_ARGUMENT", "Document name is invalid").transactionExpired)
    #expect(!reply(409, "ABORTED", "Transaction lock timeout expired").transactionExpired)
    #expect(reply(429, "RESOURCE_EXHAUSTED", "gRPC message exceeds maximum size 4194304: 5000000").requestTooLarge)
    let page = ErrorReply.error(
      status: 502, contentType: "text/html", body: Data("<html><body><h1>Bad Gateway</h1></body></html>".utf8), method: "GET",
      path: "/v1/x")
    #expect(page.code == .unavailable && page.serverStatus == nil && page.message.contains("Bad Gateway"))
    #expect(!page.message.contains("<h1>"))
  }
}
