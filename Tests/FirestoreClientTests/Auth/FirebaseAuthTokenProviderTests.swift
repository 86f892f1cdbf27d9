import FirestoreMock
import FirestorePlatform
import FirestoreWire
import Foundation
import Testing

@testable import FirestoreClient

@Suite("Auth: Firebase ID tokens")
struct FirebaseAuthTokenProviderTests {
  @Test("email/password sign-in yields the user's ID token and the project")
  func emailPassword() async throws {
    let server = try MockAuthServer.start(firebaseProjectID: "demo-fb")
    defer { server.stop() }
    server.addUser(email: "ada@example.com", password: "correct-horse-battery", uid: "ada")
    let auth = FirebaseAuthTokenProvider(apiKey: server.apiKey, emulatorHost: server.hostAndPort)
    #expect(try await auth.token(forceRefresh: false) == nil, "signed out: no token")
    let user = try await auth.signIn(withEmail: "ada@example.com", password: "correct-horse-battery")
    #expect(user == FirebaseAuthUser(uid: "ada", email: "ada@example.com", isAnonymous: false))
    #expect(auth.currentUser?.uid == "ada")
    let token = try #require(try await auth.token(forceRefresh: false))
    #expect(JWT.claims(of: token)?["sub"]?.stringValue == "ada")
    #expect(try await auth.projectID() == "demo-fb")
    #expect(try await auth.token(forceRefresh: false) == token, "cached")
    #expect(server.snapshot.hits["/securetoken.googleapis.com/v1/token"] == nil)

    await auth.signOut()
    #expect(auth.currentUser == nil)
    #expect(try await auth.token(forceRefresh: false) == nil)
  }

  @Test("wrong credentials are unauthenticated, named by Auth's code, without the password")
  func wrongPassword() async throws {
    let server = try MockAuthServer.start()
    defer { server.stop() }
    server.addUser(email: "ada@example.com", password: "correct-horse-battery", uid: "ada")
    let auth = FirebaseAuthTokenProvider(apiKey: server.apiKey, emulatorHost: server.hostAndPort)
    let error = try await #require(throws: FirestoreError.self) {
      try await auth.signIn(withEmail: "ada@example.com", password: "wrong-horse-battery")
    }
    #expect(error.code == .unauthenticated)
    #expect(error.message.contains("INVALID_LOGIN_CREDENTIALS"))
    #expect(!error.description.contains("wrong-horse-battery"))
    let badKey = FirebaseAuthTokenProvider(apiKey: "not-the-key", emulatorHost: server.hostAndPort)
    let keyError = try await #require(throws: FirestoreError.self) { try await badKey.signInAnonymously() }
    #expect(keyError.message.contains("API key not valid"))
  }

  @Test("anonymous sign-in makes a new user")
  func anonymous() async throws {
    let server = try MockAuthServer.start()
    defer { server.stop() }
    let auth = FirebaseAuthTokenProvider(apiKey: server.apiKey, emulatorHost: server.hostAndPort)
    let user = try await auth.signInAnonymously()
    #expect(user.isAnonymous && user.uid == "anon-1")
    let token = try await auth.token(forceRefresh: false)
    #expect(JWT.claims(of: token ?? "")?["sub"]?.stringValue == "anon-1")
  }

  @Test("the ID token is refreshed with the refresh token before it expires, and on a forced refresh")
  func refreshAhead() async throws {
    let server = try MockAuthServer.start()
    defer { server.stop() }
    server.addUser(email: "ada@example.com", password: "correct-horse-battery", uid: "ada")
    server.update { $0.expiresIn = 200 }  // inside the five-minute margin from the start
    let auth = FirebaseAuthTokenProvider(apiKey: server.apiKey, emulatorHost: server.hostAndPort)
    try await auth.signIn(withEmail: "ada@example.com", password: "correct-horse-battery")
    let refreshed = try #require(try await auth.token(forceRefresh: false))
    #expect(JWT.claims(of: refreshed)?["serial"] == .number("2"))
    let form = try #require(server.snapshot.tokenForms.last)
    #expect(form["grant_type"] == "refresh_token" && form["refresh_token"] == "rt-ada-1-secret")

    server.update { $0.expiresIn = 3600 }
    let third = try #require(try await auth.token(forceRefresh: false))
    #expect(JWT.claims(of: third)?["serial"] == .number("3"))
    // The refresh token the last refresh returned is the one used next.
    #expect(server.snapshot.tokenForms.last?["refresh_token"] == "rt-ada-2-secret")
    #expect(try await auth.token(forceRefresh: false) == third)
  }

  @Test("a caller's ID token: sent as is, refreshed through the closure, project from its audience")
  func idTokenProvider() async throws {
    let server = try MockAuthServer.start(firebaseProjectID: "demo-idt")
    defer { server.stop() }
    let calls = Counter()
    let clock = TestClock()
    let provider = IDTokenProvider(
      idToken: server.idToken(uid: "bob", serial: 1), now: { clock.now },
      refresh: {
        calls.increment()
        return server.idToken(uid: "bob", serial: 2)
      })
    let first = try await provider.token(forceRefresh: false)
    #expect(JWT.claims(of: first ?? "")?["serial"] == .number("1"))
    #expect(try await provider.projectID() == "demo-idt")
    #expect(provider.description == "IDTokenProvider(uid: bob)")
    clock.advance(TokenRefresher.forcedRefreshReuse + .milliseconds(100))  // past the reuse window
    let second = try await provider.token(forceRefresh: true)
    #expect(JWT.claims(of: second ?? "")?["serial"] == .number("2"))
    #expect(calls.value == 1)

    let fixed = IDTokenProvider(idToken: "a.b.c")
    #expect(try await fixed.token(forceRefresh: true) == "a.b.c")
    await fixed.setIDToken("d.e.f")
    #expect(try await fixed.token(forceRefresh: false) == "d.e.f")
  }

  @Test("emulator tokens: owner, or an unsigned JWT with sub = uid and custom claims")
  func emulatorTokens() async throws {
    #expect(try await EmulatorTokenProvider.owner.token(forceRefresh: false) == "owner")
    let token = try #require(try await EmulatorTokenProvider(uid: "alice", claims: ["admin": true, "tier": 3]).token(forceRefresh: false))
    #expect(token.hasSuffix("."), "empty signature part")
    let jwt = try #require(DecodedJWT(token))
    #expect(jwt.header["alg"]?.stringValue == "none")
    #expect(jwt.claims["sub"]?.stringValue == "alice" && jwt.claims["user_id"]?.stringValue == "alice")
    #expect(jwt.claims["admin"] == .bool(true) && jwt.claims["tier"] == .number("3"))
    let reserved = EmulatorTokenProvider(uid: "alice", claims: ["sub": "mallory"])
    let error = try await #require(throws: FirestoreError.self) { try await reserved.token(forceRefresh: false) }
    #expect(error.code == .invalidArgument && error.message.contains("claim \"sub\" is reserved"))
    await #expect(throws: FirestoreError.self) { try await EmulatorTokenProvider(uid: "").token(forceRefresh: false) }
    let unsupported = EmulatorTokenProvider(uid: "a", claims: ["when": Date()])
    let typeError = try await #require(throws: FirestoreError.self) { try await unsupported.token(forceRefresh: false) }
    #expect(typeError.message.contains("claim when has a value of type Date"))
  }
}

/// A thread-safe counter.
final class Counter: Sendable {
  private let count = Locked(0)
  func increment() { count.withLock { $0 += 1 } }
  var value: Int { count.value }
}
