import FirestorePlatform
import FirestoreWire
import Foundation

/// End-user credentials from Firebase Auth's REST API: signs in with email and password or
/// anonymously, keeps the refresh token, and sends the user's ID token, refreshed five
/// minutes before it expires. Security rules apply to every request.
///
/// Before sign-in and after ``signOut()`` no token is sent, so requests are
/// unauthenticated. Concurrent callers share one refresh. `FIREBASE_AUTH_EMULATOR_HOST`
/// (or `emulatorHost`) points it at the Auth emulator over plain `http`; otherwise it
/// talks to `identitytoolkit.googleapis.com` and `securetoken.googleapis.com` over https.
///
/// ```swift
/// let auth = FirebaseAuthTokenProvider(apiKey: "AIza…")
/// let user = try await auth.signIn(withEmail: "ada@example.com", password: "…")
/// let settings = FirestoreSettings()
/// settings.tokenProvider = auth
/// let db = try await Firestore(settings: settings)  // project from the ID token
/// try await db.document("users/\(user.uid)/favorites/plan1").setData(["starredAt": Date()])
/// ```
///
/// Errors name the Auth error (`INVALID_LOGIN_CREDENTIALS`, `TOKEN_EXPIRED`, …), never a
/// password or token.
public final class FirebaseAuthTokenProvider: TokenProvider, CustomStringConvertible, CustomReflectable {
  /// `host:port` of the Auth emulator, when one is used.
  public let emulatorHost: String?
  private let apiKey: String
  private let client: TokenEndpointClient
  private let session: Locked<Session?>
  private let refresher: TokenRefresher
  /// Tells the readers of ``tokenUserChanges()`` of each sign-in and sign-out.
  private let announcer = TokenUserAnnouncer()

  struct Session: Sendable {
    var user: FirebaseAuthUser
    var idToken: String
    var refreshToken: String
  }

  /// Creates a signed-out provider.
  /// - Parameters:
  ///   - apiKey: the Firebase project's Web API key.
  ///   - emulatorHost: `host:port` of the Auth emulator (or a test server), spoken to over
  ///     plain `http`; by default `FIREBASE_AUTH_EMULATOR_HOST`, else production over https.
  ///   - environment: where `FIREBASE_AUTH_EMULATOR_HOST` is read.
  ///   - transport: what carries the requests.
  public convenience init(
    apiKey: String, emulatorHost: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment,
    transport: (any Transport)? = nil
  ) {
    self.init(apiKey: apiKey, emulatorHost: emulatorHost, environment: environment, transport: transport, now: { .now })
  }

  /// Creates a signed-out provider whose token cache reads the time from `now` (a clock
  /// tests move).
  init(
    apiKey: String, emulatorHost: String?, environment: [String: String], transport: (any Transport)?,
    now: @escaping @Sendable () -> ContinuousClock.Instant
  ) {
    let host =
      emulatorHost ?? environment["FIREBASE_AUTH_EMULATOR_HOST"].flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 }
    self.emulatorHost = host
    self.apiKey = apiKey
    let client = TokenEndpointClient(transport: transport)
    self.client = client
    let session = Locked<Session?>(nil)
    self.session = session
    let refreshURL = TokenEndpointRPC.firebaseAuthURL(.refreshToken, apiKey: apiKey, emulatorHost: host)
    refresher = TokenRefresher(now: now) {
      guard let refreshToken = session.value?.refreshToken else {
        throw FirestoreError(.unauthenticated, "no Firebase Auth user is signed in")
      }
      let url = try refreshURL.get()
      let what = "Firebase Auth token refresh (\(TokenEndpointClient.display(url)))"
      let redaction = SecretRedaction(secrets: [refreshToken, apiKey])
      let reply = try await client.send(
        .firebaseRefresh(url, refreshToken: refreshToken), what: what, redaction: redaction,
        refusal: Self.refusal(what: what, redaction: redaction))
      guard let json = reply.json, let idToken = json["id_token"]?.stringValue, !idToken.isEmpty else {
        throw FirestoreError(.unavailable, "\(what) answered without an \"id_token\"")
      }
      let lifetime = try OAuthTokenExchange.lifetime(json["expires_in"], field: "expires_in", what: what)
      let newRefreshToken = json["refresh_token"]?.stringValue
      session.withLock { current in
        // A sign-out or another sign-in meanwhile wins over this refresh.
        guard current?.refreshToken == refreshToken else { return }
        current?.idToken = idToken
        if let newRefreshToken, !newRefreshToken.isEmpty { current?.refreshToken = newRefreshToken }
      }
      return TokenRefresher.Fetched(value: idToken, lifetime: lifetime)
    }
  }

  /// The signed-in user, or `nil`.
  public var currentUser: FirebaseAuthUser? { session.value?.user }

  /// Signs in with email and password (`accounts:signInWithPassword`).
  /// - Throws: ``FirestoreError``: `unauthenticated` for wrong credentials
  ///   (`INVALID_LOGIN_CREDENTIALS`), `permissionDenied` for a disabled user.
  @discardableResult
  public func signIn(withEmail email: String, password: String) async throws -> FirebaseAuthUser {
    let body = JSONValue.object([("email", .string(email)), ("password", .string(password)), ("returnSecureToken", .bool(true))])
    return try await signIn(
      .signInWithPassword, body: body, what: "Firebase Auth sign-in of \(email)", secrets: [password]
    ) {
      json, uid in FirebaseAuthUser(uid: uid, email: json["email"]?.stringValue ?? email, isAnonymous: false)
    }
  }

  /// Signs in as a new anonymous user (`accounts:signUp` with no email).
  @discardableResult
  public func signInAnonymously() async throws -> FirebaseAuthUser {
    let body = JSONValue.object([("returnSecureToken", .bool(true))])
    return try await signIn(.signUp, body: body, what: "Firebase Auth anonymous sign-in", secrets: []) {
      _, uid in FirebaseAuthUser(uid: uid, isAnonymous: true)
    }
  }

  /// Signs out: no token is sent from now on, and a refresh in flight is discarded.
  public func signOut() async {
    session.withLock { $0 = nil }
    await refresher.reset()
    announceUser()
  }

  /// The signed-in user after each sign-in and sign-out, for as long as the stream is read.
  public func tokenUserChanges() -> AsyncStream<TokenUser>? { announcer.changes() }

  /// Tells the readers of ``tokenUserChanges()`` who is signed in now.
  private func announceUser() {
    if let user = currentTokenUser { announcer.announce(user) }
  }

  /// The current user's ID token (refreshed first when near expiry or `forceRefresh`),
  /// or `nil` when no user is signed in.
  public func token(forceRefresh: Bool) async throws -> String? {
    guard session.value != nil else { return nil }
    return try await refresher.token(forceRefresh: forceRefresh)
  }

  /// The signed-in user's ID, or ``TokenUser/unauthenticated`` after ``signOut()``.
  public var currentTokenUser: TokenUser? {
    session.value.map { user(for: $0.idToken) } ?? .unauthenticated
  }

  /// The project of the signed-in user's ID token (its `aud`), or `nil` when signed out.
  public func projectID() async throws -> String? {
    session.value.flatMap { JWT.claims(of: $0.idToken)?["aud"]?.stringValue }
  }

  private func signIn(
    _ method: TokenEndpointRPC.FirebaseAuthMethod, body: JSONValue, what: String, secrets: [String],
    user: (_ json: JSONValue, _ uid: String) -> FirebaseAuthUser
  ) async throws -> FirebaseAuthUser {
    let url = try TokenEndpointRPC.firebaseAuthURL(method, apiKey: apiKey, emulatorHost: emulatorHost).get()
    let redaction = SecretRedaction(secrets: secrets + [apiKey])
    let reply = try await client.send(
      .firebaseSignIn(method, url: url, body: body), what: what, redaction: redaction,
      refusal: Self.refusal(what: what, redaction: redaction))
    guard let json = reply.json, let idToken = json["idToken"]?.stringValue, !idToken.isEmpty,
      let refreshToken = json["refreshToken"]?.stringValue, !refreshToken.isEmpty
    else {
      throw FirestoreError(.unavailable, "\(what): the reply has no \"idToken\" and \"refreshToken\"")
    }
    guard let uid = json["localId"]?.stringValue ?? JWT.claims(of: idToken)?["sub"]?.stringValue, !uid.isEmpty else {
      throw FirestoreError(.unavailable, "\(what): the reply names no user (\"localId\")")
    }
    let lifetime = try OAuthTokenExchange.lifetime(json["expiresIn"], field: "expiresIn", what: what)
    let signedIn = user(json, uid)
    session.withLock { $0 = Session(user: signedIn, idToken: idToken, refreshToken: refreshToken) }
    await refresher.store(.init(value: idToken, lifetime: lifetime))
    announceUser()
    return signedIn
  }

  /// The error for a refusal: Firebase Auth's `{"error": {"message": "CODE : detail"}}`.
  static func refusal(what: String, redaction: SecretRedaction) -> @Sendable (TokenEndpointClient.Reply) -> FirestoreError {
    { reply in
      let message = reply.json?["error"]?["message"]?.stringValue ?? ""
      let name = message.split(separator: " ").first.map(String.init) ?? ""
      let code: FirestoreError.Code
      switch name {
      case "USER_DISABLED", "OPERATION_NOT_ALLOWED", "ADMIN_ONLY_OPERATION": code = .permissionDenied
      case "TOO_MANY_ATTEMPTS_TRY_LATER", "QUOTA_EXCEEDED": code = .resourceExhausted
      case "INVALID_EMAIL", "MISSING_PASSWORD", "MISSING_EMAIL", "WEAK_PASSWORD": code = .invalidArgument
      case "": code = TokenEndpointClient.code(forStatus: reply.status)
      default: code = reply.status >= 500 ? .unavailable : .unauthenticated
      }
      let detail = message.isEmpty ? "" : ": " + redaction.scrub(String(message.prefix(300)))
      return FirestoreError(code, "\(what) answered HTTP \(reply.status)\(detail)", httpStatus: reply.status)
    }
  }

  /// `FirebaseAuthTokenProvider(user: …)` or `(signed out)`; never a token.
  public var description: String {
    "FirebaseAuthTokenProvider(" + (currentUser.map { "user: \($0.uid)" } ?? "signed out") + ")"
  }

  /// The user only, so `dump` and debuggers never show a token.
  public var customMirror: Mirror {
    Mirror(self, children: ["currentUser": currentUser as Any, "emulatorHost": emulatorHost as Any], displayStyle: .class)
  }
}
