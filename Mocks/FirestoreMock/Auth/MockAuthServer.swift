import FirestorePlatform
import FirestoreWire
import Foundation
import HTTP1Server

/// An in-process stand-in for Google's token services, for testing credential providers
/// without the network: the OAuth 2.0 token endpoint (`POST /token`), the Compute Engine
/// metadata server (`/computeMetadata/v1/…`) and Firebase Auth's REST API as its emulator
/// serves it (`/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword`,
/// `…:signUp`, `/securetoken.googleapis.com/v1/token`).
///
/// It issues numbered tokens (`ya29.sa-1`, `ya29.sa-2`, …), records what it was sent
/// (assertions, form fields) for tests to check, and can be told to fail or slow down.
/// Firebase ID tokens are unsigned JWTs (`sub` = the user ID, `aud` = ``firebaseProjectID``),
/// which the Firestore emulator accepts, so a provider signed in here works there too.
///
/// ```swift
/// let auth = try MockAuthServer.start()
/// defer { auth.stop() }
/// auth.addUser(email: "ada@example.com", password: "secret-pw", uid: "ada")
/// // Point a FirebaseAuthTokenProvider at emulatorHost: auth.hostAndPort
/// ```
///
/// It does not verify assertion signatures (it has no public key); tests do.
public final class MockAuthServer: Sendable {
  /// What the server does and has seen; change it with ``update(_:)``.
  public struct State: Sendable {
    /// Lifetime, in seconds, of the tokens it issues.
    public var expiresIn = 3600
    /// How long each token request waits before it is answered.
    public var delayMilliseconds = 0
    /// Statuses to answer the next token requests with, first one first (then normal service).
    public var failures: [Int] = []
    /// The `assertion` of every JWT-bearer grant, in order.
    public var assertions: [String] = []
    /// The form fields of every request to `/token` and the securetoken endpoint.
    public var tokenForms: [[String: String]] = []
    /// How many tokens of each kind were issued: `sa`, `user`, `meta`, `id`.
    public var issued: [String: Int] = [:]
    /// Requests per path, for counting.
    public var hits: [String: Int] = [:]
    /// Email → (password, uid) of email/password users.
    public var users: [String: (password: String, uid: String)] = [:]
    /// Refresh token → uid of signed-in Firebase users.
    public var refreshTokens: [String: String] = [:]
    /// The refresh token and client secret an `authorized_user` grant must carry.
    public var authorizedUser: (clientID: String, clientSecret: String, refreshToken: String)?
    /// Whether the metadata routes answer (off: 404 without `Metadata-Flavor`).
    public var metadataEnabled = true
  }

  /// The project Firebase ID tokens name as their audience.
  public let firebaseProjectID: String
  /// The Web API key Firebase requests must carry as `?key=`.
  public let apiKey: String
  private let http: MockHTTPServer
  private let state: Locked<State>
  private let isStopping = Locked(false)

  /// `host:port` of the server.
  public var hostAndPort: String { "\(http.host):\(http.port)" }
  /// `http://host:port/token`, the OAuth token endpoint.
  public var tokenURL: URL { URL(string: "http://\(hostAndPort)/token")! }

  private init(http: MockHTTPServer, firebaseProjectID: String, apiKey: String) {
    self.http = http
    self.state = Locked(State())
    self.firebaseProjectID = firebaseProjectID
    self.apiKey = apiKey
  }

  /// Starts a server on a free loopback port.
  /// - Parameters:
  ///   - firebaseProjectID: the audience of the ID tokens it issues.
  ///   - apiKey: the API key Firebase Auth requests must carry.
  public static func start(firebaseProjectID: String = "demo-auth", apiKey: String = "test-api-key") throws -> MockAuthServer {
    let box = Box()
    let http = try MockHTTPServer.start { request in box.server?.handle(request) ?? .text(503, "starting") }
    let server = MockAuthServer(http: http, firebaseProjectID: firebaseProjectID, apiKey: apiKey)
    box.server = server
    return server
  }

  /// Stops the server; call it when done (the handler keeps the server alive until then).
  public func stop() {
    isStopping.withLock { $0 = true }
    http.stop()
  }

  /// Reads the state.
  public var snapshot: State { state.withLock { $0 } }

  /// Changes the state.
  public func update(_ body: (inout State) -> Void) { state.withLock { body(&$0) } }

  /// Adds an email/password user.
  public func addUser(email: String, password: String, uid: String) {
    update { $0.users[email] = (password, uid) }
  }

  /// An unsigned Firebase-style ID token for `uid`, as the server issues them.
  public func idToken(uid: String, serial: Int) -> String {
    let now = Int64(Date().timeIntervalSince1970)
    let claims = JSONValue.object([
      ("iss", .string("https://securetoken.google.com/\(firebaseProjectID)")), ("aud", .string(firebaseProjectID)),
      ("iat", .integer(now)), ("exp", .integer(now + Int64(snapshot.expiresIn))), ("sub", .string(uid)),
      ("user_id", .string(uid)), ("serial", .integer(Int64(serial))),
    ])
    let header = JSONValue.object([("alg", .string("none")), ("typ", .string("JWT"))])
    return Self.base64URL(JSONWriter.bytes(header)) + "." + Self.base64URL(JSONWriter.bytes(claims)) + "."
  }

  // MARK: - Routes

  private func handle(_ request: MockHTTPRequest) -> MockHTTPResponse {
    let (delay, failure) = state.withLock { s -> (Int, Int?) in
      s.hits[request.path, default: 0] += 1
      let isTokenRequest = !request.path.hasSuffix("/computeMetadata/v1/") && request.path != "/computeMetadata/v1/project/project-id"
      return (s.delayMilliseconds, isTokenRequest && !s.failures.isEmpty ? s.failures.removeFirst() : nil)
    }
    // Waits in short steps, so that stop() (which waits for handlers) is not held up.
    var waited = 0
    while waited < delay, !isStopping.withLock({ $0 }) {
      usleep(10_000)
      waited += 10
    }
    if let failure {
      return .json(failure, .object([("error", .string("temporarily_unavailable")), ("error_description", .string("injected failure"))]))
    }
    switch (request.method, request.path) {
    case ("POST", "/token"): return oauthToken(request)
    case ("GET", "/computeMetadata/v1/"), ("GET", "/computeMetadata/v1/project/project-id"),
      ("GET", "/computeMetadata/v1/instance/service-accounts/default/token"):
      return metadata(request)
    case ("POST", "/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword"): return signIn(request, anonymous: false)
    case ("POST", "/identitytoolkit.googleapis.com/v1/accounts:signUp"): return signIn(request, anonymous: true)
    case ("POST", "/securetoken.googleapis.com/v1/token"): return secureTokenRefresh(request)
    default: return .text(404, "Not Found")
    }
  }

  private func oauthToken(_ request: MockHTTPRequest) -> MockHTTPResponse {
    let form = Self.form(request.body)
    return state.withLock { s in
      s.tokenForms.append(form)
      switch form["grant_type"] {
      case "urn:ietf:params:oauth:grant-type:jwt-bearer":
        guard let assertion = form["assertion"], assertion.split(separator: ".").count == 3 else {
          return Self.oauthError("invalid_grant", "Invalid JWT.")
        }
        s.assertions.append(assertion)
        return Self.accessToken(kind: "sa", state: &s)
      case "refresh_token":
        guard let expected = s.authorizedUser, form["client_id"] == expected.clientID, form["client_secret"] == expected.clientSecret,
          form["refresh_token"] == expected.refreshToken
        else { return Self.oauthError("invalid_grant", "Bad Request") }
        return Self.accessToken(kind: "user", state: &s)
      default:
        return Self.oauthError("unsupported_grant_type", "Invalid grant_type.")
      }
    }
  }

  private func metadata(_ request: MockHTTPRequest) -> MockHTTPResponse {
    let flavor = [(name: "Metadata-Flavor", value: "Google")]
    return state.withLock { s in
      guard s.metadataEnabled, request.header("metadata-flavor") == "Google" else { return .text(404, "Not Found") }
      var response: MockHTTPResponse
      switch request.path {
      case "/computeMetadata/v1/": response = .text(200, "instance/\nproject/\n")
      case "/computeMetadata/v1/project/project-id": response = .text(200, "meta-project")
      default: response = Self.accessToken(kind: "meta", state: &s)
      }
      response.headers += flavor
      return response
    }
  }

  private func signIn(_ request: MockHTTPRequest, anonymous: Bool) -> MockHTTPResponse {
    guard request.queryValue("key") == apiKey else { return Self.firebaseError(400, "API key not valid. Please pass a valid API key.") }
    guard let body = try? JSONParser.parse(request.body) else { return Self.firebaseError(400, "INVALID_JSON") }
    let uid: String?
    if anonymous {
      uid = state.withLock { s in
        s.issued["anon", default: 0] += 1
        return "anon-\(s.issued["anon"]!)"
      }
    } else {
      let email = body["email"]?.stringValue ?? ""
      let password = body["password"]?.stringValue ?? ""
      uid = state.withLock { s in s.users[email].flatMap { $0.password == password ? $0.uid : nil } }
    }
    guard let uid else { return Self.firebaseError(400, "INVALID_LOGIN_CREDENTIALS") }
    let (idToken, refreshToken, expiresIn) = issueFirebaseTokens(uid: uid)
    var fields: [(String, JSONValue)] = [
      ("kind", .string("identitytoolkit#VerifyPasswordResponse")), ("localId", .string(uid)), ("idToken", .string(idToken)),
      ("refreshToken", .string(refreshToken)), ("expiresIn", .string(String(expiresIn))),
    ]
    if let email = body["email"]?.stringValue { fields.append(("email", .string(email))) }
    return .json(200, .object(fields))
  }

  private func secureTokenRefresh(_ request: MockHTTPRequest) -> MockHTTPResponse {
    guard request.queryValue("key") == apiKey else { return Self.firebaseError(400, "API key not valid. Please pass a valid API key.") }
    let form = Self.form(request.body)
    let uid = state.withLock { s -> String? in
      s.tokenForms.append(form)
      guard form["grant_type"] == "refresh_token", let token = form["refresh_token"] else { return nil }
      return s.refreshTokens[token]
    }
    guard let uid else { return Self.firebaseError(400, "INVALID_REFRESH_TOKEN") }
    let (idToken, refreshToken, expiresIn) = issueFirebaseTokens(uid: uid)
    return .json(
      200,
      .object([
        ("id_token", .string(idToken)), ("refresh_token", .string(refreshToken)), ("expires_in", .string(String(expiresIn))),
        ("token_type", .string("Bearer")), ("user_id", .string(uid)), ("project_id", .string(firebaseProjectID)),
        ("access_token", .string(idToken)),
      ]))
  }

  private func issueFirebaseTokens(uid: String) -> (idToken: String, refreshToken: String, expiresIn: Int) {
    let (serial, expiresIn) = state.withLock { s in
      s.issued["id", default: 0] += 1
      return (s.issued["id"]!, s.expiresIn)
    }
    let refreshToken = "rt-\(uid)-\(serial)-secret"
    state.withLock { $0.refreshTokens[refreshToken] = uid }
    return (idToken(uid: uid, serial: serial), refreshToken, expiresIn)
  }

  // MARK: - Helpers

  private static func accessToken(kind: String, state s: inout State) -> MockHTTPResponse {
    s.issued[kind, default: 0] += 1
    return .json(
      200,
      .object([
        ("access_token", .string("ya29.\(kind)-\(s.issued[kind]!)")), ("expires_in", .integer(Int64(s.expiresIn))),
        ("token_type", .string("Bearer")),
      ]))
  }

  private static func oauthError(_ error: String, _ description: String) -> MockHTTPResponse {
    .json(400, .object([("error", .string(error)), ("error_description", .string(description))]))
  }

  private static func firebaseError(_ status: Int, _ message: String) -> MockHTTPResponse {
    .json(status, .object([("error", .object([("code", .integer(Int64(status))), ("message", .string(message))]))]))
  }

  /// Decodes an `application/x-www-form-urlencoded` body.
  static func form(_ body: [UInt8]) -> [String: String] {
    var fields: [String: String] = [:]
    for pair in body.split(separator: UInt8(ascii: "&")) {
      let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
      guard let name = PercentEncoding.decode(parts[0], plusIsSpace: true),
        let value = PercentEncoding.decode(parts.count > 1 ? parts[1] : [], plusIsSpace: true)
      else { continue }
      fields[name] = value
    }
    return fields
  }

  private static func base64URL(_ bytes: [UInt8]) -> String {
    Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
  }

  /// Lets the HTTP handler reach the server object created after it.
  private final class Box: Sendable {
    private let slot = Locked<MockAuthServer?>(nil)
    var server: MockAuthServer? {
      get { slot.withLock { $0 } }
      set { slot.withLock { $0 = newValue } }
    }
  }
}
