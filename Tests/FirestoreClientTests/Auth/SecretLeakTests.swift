import FirestoreMock
import Foundation
import Testing

@testable import FirestoreClient

/// Every text the auth code shows a person (error messages and descriptions, descriptions
/// and `dump`s of providers and credentials) is searched for every secret it handled.
@Suite("Auth: no secret in any message, description or dump")
struct SecretLeakTests {
  @Test("errors, descriptions and dumps carry no key, token, assertion, password or refresh token")
  func noSecrets() async throws {
    let server = try MockAuthServer.start()
    defer { server.stop() }
    server.addUser(email: "ada@example.com", password: "correct-horse-battery", uid: "ada")
    server.update { $0.authorizedUser = ("cid.apps.googleusercontent.com", "shh-client-secret", "1//user-refresh-secret") }
    var texts: [String] = []
    func record(_ value: Any) {
      texts.append(String(describing: value))
      texts.append(String(reflecting: value))
      var dumped = ""
      dump(value, to: &dumped)
      texts.append(dumped)
    }
    func recordError(_ body: () async throws -> Void) async {
      do {
        try await body()
      } catch {
        record(error)
        if let error = error as? FirestoreError { texts.append(error.message) }
      }
    }

    // Service account: the provider, its credentials, a refused exchange.
    let credentials = try AuthFixtures.serviceAccount()
    // The forced refreshes below must not reuse the token just fetched: the reuse window
    // runs on this clock, which the test moves past it.
    let clock = TestClock()
    let sa = try ServiceAccountTokenProvider(credentials: credentials, tokenURL: server.tokenURL, transport: nil, now: { clock.now })
    let saToken = try #require(try await sa.token(forceRefresh: false))
    record(sa)
    record(credentials)
    server.update { $0.failures = [400, 401] }
    clock.advance(TokenRefresher.forcedRefreshReuse + .milliseconds(100))
    await recordError { _ = try await sa.token(forceRefresh: true) }
    await recordError { _ = try await sa.token(forceRefresh: true) }

    // Authorized user: provider, credentials, a revoked refresh token.
    let dir = TempDirectory()
    defer { dir.cleanUp() }
    let userCredentials = try AuthorizedUserCredentials(
      contentsOf: dir.write("adc.json", ApplicationDefaultCredentialsTests.authorizedUserJSON))
    let user = try AuthorizedUserTokenProvider(credentials: userCredentials, tokenURL: server.tokenURL)
    let userToken = try #require(try await user.token(forceRefresh: false))
    record(user)
    record(userCredentials)
    server.update { $0.authorizedUser = nil }
    await recordError {
      _ = try await AuthorizedUserTokenProvider(credentials: userCredentials, tokenURL: server.tokenURL).token(forceRefresh: false)
    }

    // Firebase: signed-in provider, wrong password, refresh with a revoked refresh token.
    let firebase = FirebaseAuthTokenProvider(
      apiKey: server.apiKey, emulatorHost: server.hostAndPort, environment: [:], transport: nil, now: { clock.now })
    try await firebase.signIn(withEmail: "ada@example.com", password: "correct-horse-battery")
    let idToken = try #require(try await firebase.token(forceRefresh: false))
    record(firebase)
    await recordError {
      try await FirebaseAuthTokenProvider(apiKey: server.apiKey, emulatorHost: server.hostAndPort).signIn(
        withEmail: "ada@example.com", password: "wrong-horse-battery")
    }
    server.update { $0.refreshTokens = [:] }
    clock.advance(TokenRefresher.forcedRefreshReuse + .milliseconds(100))
    await recordError { _ = try await firebase.token(forceRefresh: true) }

    // Caller-supplied and emulator tokens, and the static one.
    record(IDTokenProvider(idToken: idToken))
    let emulator = EmulatorTokenProvider(uid: "alice", claims: ["admin": true])
    let emulatorToken = try #require(try await emulator.token(forceRefresh: false))
    record(emulator)
    record(StaticTokenProvider("ya29.static-secret-token"))

    // A request the server rejects: the client's error names the request, not the token.
    let settings = FirestoreSettings.emulator(host: RESTAuthRetryTests.firestore.hostAndPort)
    settings.transport = GatekeeperTransport(rejecting: [saToken, "ya29.sa-2", "ya29.sa-3", "ya29.sa-4"])
    settings.tokenProvider = sa
    settings.retryPolicy = .none
    await recordError { _ = try await Firestore(projectID: "p", settings: settings).document("c/d").getDocument() }
    record(settings)

    let secrets =
      AuthFixtures.keyMaterial + server.snapshot.assertions + [
        saToken, "ya29.sa-2", userToken, idToken, emulatorToken, "ya29.static-secret-token", "correct-horse-battery",
        "wrong-horse-battery", "shh-client-secret", "1//user-refresh-secret", "rt-ada-1-secret",
      ]
    #expect(texts.count > 40)
    #expect(texts.contains { $0.contains(AuthFixtures.clientEmail) }, "the texts do show what is not secret")
    for secret in secrets {
      for text in texts where text.contains(secret) {
        Issue.record("a secret (\(secret.prefix(8))…) appears in: \(text.prefix(300))")
      }
    }
  }
}
