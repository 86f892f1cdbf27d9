import FirestoreMock
import FirestorePlatform
import FirestoreTestSupport
import FirestoreWire
import Foundation
import Testing

@testable import FirestoreClient

/// The client and a real provider together, against the mock Firestore server: a token
/// the server rejects is refreshed once and the call retried.
@Suite("Auth: UNAUTHENTICATED → refresh → retry")
struct RESTAuthRetryTests {
  static let firestore: MockFirestoreServer = {
    do { return try MockFirestoreServer.start() } catch { fatalError("cannot start the mock server: \(error)") }
  }()

  @Test("a rejected access token is refreshed once and the write retried")
  func rejectedTokenRefreshed() async throws {
    let auth = try MockAuthServer.start()
    defer { auth.stop() }
    let transport = GatekeeperTransport(rejecting: ["ya29.sa-1"])
    let settings = FirestoreSettings.emulator(host: Self.firestore.hostAndPort)
    settings.transport = transport
    let clock = TestClock()
    settings.tokenProvider = try ServiceAccountTokenProvider(
      credentials: AuthFixtures.serviceAccount(), tokenURL: auth.tokenURL, transport: nil, now: { clock.now })
    let db = Firestore(projectID: "demo-auth-retry", settings: settings)
    // The forced refresh must not reuse the token fetched moments ago; move the clock past the reuse window.
    _ = try await settings.tokenProvider!.token(forceRefresh: false)
    clock.advance(TokenRefresher.forcedRefreshReuse + .milliseconds(100))
    try await db.document("c/d").setData(["x": 1])
    #expect(transport.authorizations(pathContaining: "/documents") == ["Bearer ya29.sa-1", "Bearer ya29.sa-2"])
    #expect(auth.snapshot.issued["sa"] == 2)
    #expect(try await db.document("c/d").getDocument().get("x") as? Int == 1)
  }

  @Test("50 concurrent calls rejected together cause one refresh and all succeed")
  func concurrentRejections() async throws {
    let auth = try MockAuthServer.start()
    defer { auth.stop() }
    auth.update { $0.delayMilliseconds = 100 }
    let transport = GatekeeperTransport(rejecting: ["ya29.sa-1"])
    let settings = FirestoreSettings.emulator(host: Self.firestore.hostAndPort)
    settings.transport = transport
    // The reuse window runs on the test's clock: moved past it once, so the rejections force
    // a refresh, and then still, so that rejections arriving late reuse that refresh.
    let clock = TestClock()
    let provider = try ServiceAccountTokenProvider(
      credentials: AuthFixtures.serviceAccount(), tokenURL: auth.tokenURL, transport: nil, now: { clock.now })
    settings.tokenProvider = provider
    let db = Firestore(projectID: "demo-auth-retry", settings: settings)
    _ = try await provider.token(forceRefresh: false)
    clock.advance(TokenRefresher.forcedRefreshReuse + .milliseconds(100))
    let results = try await withThrowingTaskGroup(of: Bool.self) { group in
      for i in 0..<50 { group.addTask { try await db.document("many/d\(i)").getDocument().exists } }
      return try await group.reduce(into: [Bool]()) { $0.append($1) }
    }
    #expect(results.count == 50)
    #expect(auth.snapshot.issued["sa"] == 2, "one initial token and one shared refresh")
    let sent = transport.authorizations(pathContaining: "/documents/many/")
    #expect(sent.count == 100)
    #expect(sent.filter { $0 == "Bearer ya29.sa-2" }.count == 50)
  }

  @Test("a listen channel re-handshakes with the new token when the old one expires")
  func listenRehandshakes() async throws {
    let auth = try MockAuthServer.start()
    defer { auth.stop() }
    let clock = TestClock()
    let transport = GatekeeperTransport()
    let settings = FirestoreSettings.emulator(host: Self.firestore.hostAndPort)
    settings.transport = transport
    settings.tokenProvider = try ServiceAccountTokenProvider(
      credentials: AuthFixtures.serviceAccount(), tokenURL: auth.tokenURL, transport: nil, now: { clock.now })
    let db = Firestore(projectID: "demo-auth-listen", settings: settings)
    try await db.document("l/a").setData(["n": 1])

    let first = Locked<[Int]>([])
    // Only snapshots from the server count: the local cache can show `l/a` before the
    // channel's handshake has even gone out.
    let a = db.document("l/a").addSnapshotListener(includeMetadataChanges: true) { snapshot, _ in
      if let snapshot, !snapshot.metadata.isFromCache, let n = snapshot.get("n") as? Int { first.withLock { $0.append(n) } }
    }
    defer { a.remove() }
    try await eventually("the first snapshot from the server") { first.withLock { $0 } == [1] }

    clock.advance(.seconds(3500))  // the token is now inside its refresh margin
    let second = Locked<[Int]>([])
    let b = db.document("l/b").addSnapshotListener { snapshot, _ in
      if let snapshot { second.withLock { $0.append(snapshot.exists ? 1 : 0) } }
    }
    defer { b.remove() }
    try await eventually("the second listener's snapshot") { !second.withLock { $0 }.isEmpty }
    try await db.document("l/a").setData(["n": 2])
    try await eventually("the first listener seeing n == 2") { first.withLock { $0 }.last == 2 }

    let handshakes = transport.requests.filter {
      $0.method == "POST" && $0.url.path.hasSuffix("/Listen/channel") && !($0.url.query ?? "").contains("SID=")
    }
    let tokens = try handshakes.map { request in
      try WebChannelForwardBody.headers(in: String(decoding: request.body ?? Data(), as: UTF8.self)).first { $0.name == "Authorization" }?
        .value
    }
    #expect(tokens == ["Bearer ya29.sa-1", "Bearer ya29.sa-2"])
  }
}
