import FirestoreMock
import FirestoreTestSupport
import FirestoreWire
import Foundation
import Synchronization
import Testing

@testable import FirestoreClient

@Suite("Auth: service account tokens")
struct ServiceAccountTokenProviderTests {
  /// A provider that gets its tokens from `server` and reads the time from a clock the test
  /// advances.
  private func clockedProvider(_ server: MockAuthServer) throws -> (ServiceAccountTokenProvider, TestClock) {
    let clock = TestClock()
    let provider = try ServiceAccountTokenProvider(
      credentials: AuthFixtures.serviceAccount(), tokenURL: server.tokenURL, transport: nil, now: { clock.now })
    return (provider, clock)
  }

  @Test("the assertion is an RS256 JWT with the key's kid, the account's claims and a signature the public key verifies")
  func assertionIsSignedJWT() async throws {
    let server = try MockAuthServer.start()
    defer { server.stop() }
    let provider = try ServiceAccountTokenProvider(credentials: AuthFixtures.serviceAccount(), tokenURL: server.tokenURL)
    let before = Int(Date().timeIntervalSince1970)
    #expect(try await provider.token(forceRefresh: false) == "ya29.sa-1")
    let after = Int(Date().timeIntervalSince1970)

    let form = try #require(server.snapshot.tokenForms.first)
    #expect(form["grant_type"] == "urn:ietf:params:oauth:grant-type:jwt-bearer")
    let assertion = try #require(form["assertion"])
    let jwt = try #require(DecodedJWT(assertion))
    #expect(jwt.header["alg"]?.stringValue == "RS256")
    #expect(jwt.header["typ"]?.stringValue == "JWT")
    #expect(jwt.header["kid"]?.stringValue == AuthFixtures.keyID)
    #expect(jwt.claims["iss"]?.stringValue == AuthFixtures.clientEmail)
    #expect(jwt.claims["sub"]?.stringValue == AuthFixtures.clientEmail)
    #expect(jwt.claims["aud"]?.stringValue == server.tokenURL.absoluteString)
    #expect(jwt.claims["scope"]?.stringValue == "https://www.googleapis.com/auth/datastore")
    let iat = try #require(jwt.claims["iat"]?.int)
    #expect((before...after).contains(iat))
    #expect(jwt.claims["exp"]?.int == iat + 3600)
    #expect(jwt.signature.count == 256)
    #expect(TestRSAKey.shared.verifyRS256(message: Array(jwt.signingInput.utf8), signature: jwt.signature))
    // A tampered claim no longer verifies: the check above is not vacuous.
    #expect(!TestRSAKey.shared.verifyRS256(message: Array((jwt.signingInput + "x").utf8), signature: jwt.signature))
  }

  @Test("without an override the audience is the key file's token_uri")
  func audienceIsTokenURI() throws {
    let credentials = try AuthFixtures.serviceAccount()
    let assertion = try ServiceAccountTokenProvider.assertion(
      credentials: credentials, scopes: [ServiceAccountTokenProvider.datastoreScope], audience: credentials.tokenURI, issuedAt: 1000)
    let jwt = try #require(DecodedJWT(assertion))
    #expect(jwt.claims["aud"]?.stringValue == "https://oauth2.googleapis.com/token")
    #expect(jwt.claims["iat"]?.int == 1000 && jwt.claims["exp"]?.int == 4600)
  }

  @Test("the token is cached, then refreshed five minutes before it expires")
  func cachedAndRefreshedAhead() async throws {
    let server = try MockAuthServer.start()
    defer { server.stop() }
    let (provider, clock) = try clockedProvider(server)
    #expect(try await provider.token(forceRefresh: false) == "ya29.sa-1")
    clock.advance(.seconds(3000))  // 600 s left: still fresh
    #expect(try await provider.token(forceRefresh: false) == "ya29.sa-1")
    #expect(server.snapshot.issued["sa"] == 1)
    clock.advance(.seconds(301))  // 299 s left, the token is still valid but inside the margin
    #expect(try await provider.token(forceRefresh: false) == "ya29.sa-2")
    #expect(try await provider.token(forceRefresh: false) == "ya29.sa-2")
    #expect(server.snapshot.issued["sa"] == 2)
  }

  @Test("50 concurrent callers share one refresh, also when forced")
  func singleFlight() async throws {
    let server = try MockAuthServer.start()
    defer { server.stop() }
    server.update { $0.delayMilliseconds = 300 }
    // The reuse window runs on the test's clock: however slowly the callers arrive, the
    // ones that come after a refresh are inside it until the clock is moved.
    let (provider, clock) = try clockedProvider(server)
    func fifty(forceRefresh: Bool) async throws -> [String?] {
      try await withThrowingTaskGroup(of: String?.self) { group in
        for _ in 0..<50 { group.addTask { try await provider.token(forceRefresh: forceRefresh) } }
        return try await group.reduce(into: [String?]()) { $0.append($1) }
      }
    }
    let tokens = try await fifty(forceRefresh: false)
    #expect(tokens.count == 50 && Set(tokens) == ["ya29.sa-1"])
    #expect(server.snapshot.issued["sa"] == 1)
    #expect(await provider.refresher.fetchCount == 1)

    // A forced refresh right after a refresh reuses it; one refresh serves everyone.
    let forced = try await fifty(forceRefresh: true)
    #expect(forced.count == 50 && Set(forced) == ["ya29.sa-1"])
    #expect(server.snapshot.issued["sa"] == 1)

    // Past the reuse window, 50 forced callers still cause one refresh between them.
    clock.advance(TokenRefresher.forcedRefreshReuse + .seconds(1))
    let forcedLater = try await fifty(forceRefresh: true)
    #expect(forcedLater.count == 50 && Set(forcedLater) == ["ya29.sa-2"])
    #expect(server.snapshot.issued["sa"] == 2)
    #expect(await provider.refresher.fetchCount == 2)
  }

  @Test("a forced refresh after the reuse window gets a new token")
  func forcedRefresh() async throws {
    let server = try MockAuthServer.start()
    defer { server.stop() }
    let (provider, clock) = try clockedProvider(server)
    #expect(try await provider.token(forceRefresh: false) == "ya29.sa-1")
    clock.advance(.seconds(5))
    #expect(try await provider.token(forceRefresh: true) == "ya29.sa-2")
  }

  @Test("a 503 from the token endpoint is retried; a 401 is an unauthenticated error naming endpoint and account only")
  func endpointFailures() async throws {
    let server = try MockAuthServer.start()
    defer { server.stop() }
    server.update { $0.failures = [503] }
    let (provider, clock) = try clockedProvider(server)
    #expect(try await provider.token(forceRefresh: false) == "ya29.sa-1")
    #expect(server.snapshot.hits["/token"] == 2)

    server.update { $0.failures = [401] }
    clock.advance(.seconds(5))
    let error = try await #require(throws: FirestoreError.self) { try await provider.token(forceRefresh: true) }
    #expect(error.code == .unauthenticated)
    #expect(error.message.contains("token endpoint http://\(server.hostAndPort)/token"))
    #expect(error.message.contains(AuthFixtures.clientEmail))
    #expect(error.message.contains("HTTP 401"))
    for assertion in server.snapshot.assertions { #expect(!"\(error)".contains(assertion)) }
  }

  @Test("a hanging token endpoint fails the Firestore call at its deadline")
  func hangingEndpointHonoursDeadline() async throws {
    // The deadline is real time (FirestoreSettings.timeout). A run counts once the token
    // request reached the endpoint before it passed; the endpoint holds every request
    // until stop(), so the call can only end by its deadline.
    try await withGrowingMargin("the token request reaching the endpoint before the deadline") { timeout in
      let server = try MockAuthServer.start()
      defer { server.stop() }
      server.update { $0.delayMilliseconds = 3_600_000 }  // cut short by stop()
      let settings = FirestoreSettings.emulator(host: "127.0.0.1:1")
      settings.tokenProvider = try ServiceAccountTokenProvider(credentials: AuthFixtures.serviceAccount(), tokenURL: server.tokenURL)
      settings.timeout = timeout
      settings.retryPolicy = .none
      let error = try await #require(throws: FirestoreError.self) {
        try await Firestore(projectID: "p", settings: settings).document("c/d").getDocument()
      }
      #expect(error.code == .deadlineExceeded)
      let seen = server.snapshot
      #expect(seen.issued["sa"] == nil)
      #expect((seen.hits["/token"] ?? 0) <= 1)
      // The call ended while the token endpoint was still holding the request.
      return seen.hits["/token"] == 1 ? .conclusive : .tooShort
    }
  }

  @Test("the project ID comes from the key file")
  func projectFromKey() async throws {
    let settings = FirestoreSettings(environment: [:])
    settings.tokenProvider = try ServiceAccountTokenProvider(credentials: AuthFixtures.serviceAccount())
    let db = try await Firestore(settings: settings)
    #expect(db.projectID == "demo-auth")
    let none = FirestoreSettings(environment: [:])
    none.tokenProvider = StaticTokenProvider("t")
    let error = try await #require(throws: FirestoreError.self) { try await Firestore(settings: none) }
    #expect(error.code == .invalidArgument && error.message.contains("no project ID"))
  }
}
