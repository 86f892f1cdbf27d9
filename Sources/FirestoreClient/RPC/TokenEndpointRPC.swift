import FirestoreWire
import Foundation

/// Every request this client makes to a token endpoint, declared once: its HTTP method,
/// URL, headers and body, and how a failure of it may be retried. The token providers pick
/// one and send it through ``TokenEndpointClient``; none spells a method or a path.
struct TokenEndpointRPC: Sendable {
  /// The request as sent.
  var request: HTTPRequest
  /// How a failure is retried (see ``RetryClass``).
  var retryClass: RetryClass

  /// The OAuth 2.0 token request of Google's token endpoint: `form` POSTed to `url`,
  /// answered by `{"access_token", "expires_in", "token_type"}`.
  static func oauthToken(_ url: URL, form: [(String, String)]) -> Self {
    Self(
      request: HTTPRequest(
        method: "POST", url: url, headers: ["Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"],
        body: Data(FormURLEncoding.query(form).utf8)),
      retryClass: .idempotent)
  }

  // MARK: - Firebase Auth

  /// Firebase Auth's refresh of an ID token, at the URL ``firebaseAuthURL(_:apiKey:emulatorHost:)``
  /// makes of ``FirebaseAuthMethod/refreshToken``.
  static func firebaseRefresh(_ url: URL, refreshToken: String) -> Self {
    Self(
      request: HTTPRequest(
        method: "POST", url: url, headers: ["Content-Type": "application/x-www-form-urlencoded"],
        body: Data(FormURLEncoding.query([("grant_type", "refresh_token"), ("refresh_token", refreshToken)]).utf8)),
      retryClass: .idempotent)
  }

  /// A Firebase Auth sign-in (`method` is ``FirebaseAuthMethod/signInWithPassword`` or
  /// ``FirebaseAuthMethod/signUp``) with a JSON `body`. Signing up twice would make two
  /// users, so a sign-up is repeated only when it never left.
  static func firebaseSignIn(_ method: FirebaseAuthMethod, url: URL, body: JSONValue) -> Self {
    Self(
      request: HTTPRequest(method: "POST", url: url, headers: ["Content-Type": "application/json"], body: Data(JSONWriter.bytes(body))),
      retryClass: method == .signUp ? .atMostOnce : .idempotent)
  }

  /// Firebase Auth's REST methods this client calls.
  enum FirebaseAuthMethod: Sendable, Equatable {
    /// `securetoken.googleapis.com/v1/token`.
    case refreshToken
    /// `identitytoolkit.googleapis.com/v1/accounts:signInWithPassword`.
    case signInWithPassword
    /// `identitytoolkit.googleapis.com/v1/accounts:signUp`.
    case signUp

    /// The service host and the path on it.
    var location: (service: String, path: String) {
      switch self {
      case .refreshToken: return ("securetoken.googleapis.com", "/v1/token")
      case .signInWithPassword: return ("identitytoolkit.googleapis.com", "/v1/accounts:signInWithPassword")
      case .signUp: return ("identitytoolkit.googleapis.com", "/v1/accounts:signUp")
      }
    }
  }

  /// `http(s)://…/{service}{path}?key=…` of `method`: production, or the Auth emulator's
  /// path-prefixed form.
  static func firebaseAuthURL(_ method: FirebaseAuthMethod, apiKey: String, emulatorHost: String?) -> Result<URL, FirestoreError> {
    let (service, path) = method.location
    let base = emulatorHost.map { "http://\($0)/\(service)" } ?? "https://\(service)"
    guard let url = URL(string: base + path + "?key=" + PercentEncoding.encode(apiKey)) else {
      return .failure(.invalidArgument("Firebase Auth host \"\(emulatorHost ?? service)\" does not form a URL"))
    }
    return .success(url)
  }

  // MARK: - Metadata server

  /// What the metadata server is asked.
  enum MetadataQuery: Sendable {
    /// An access token of `serviceAccount`, for `scopes` when given.
    case token(serviceAccount: String, scopes: [String]?)
    /// The instance's project ID.
    case projectID
    /// The root, which only answers whether a metadata server is there.
    case probe

    /// The path and query on the server.
    var path: String {
      switch self {
      case .token(let account, let scopes):
        var path = "/computeMetadata/v1/instance/service-accounts/\(PercentEncoding.encode(account))/token"
        if let scopes, !scopes.isEmpty { path += "?scopes=" + PercentEncoding.encode(scopes.joined(separator: ",")) }
        return path
      case .projectID: return "/computeMetadata/v1/project/project-id"
      case .probe: return "/computeMetadata/v1/"
      }
    }
  }

  /// A GET of the metadata server at `host`; `nil` when the host does not form a URL.
  static func metadata(_ query: MetadataQuery, host: String) -> Self? {
    guard let url = URL(string: "http://\(host)\(query.path)") else { return nil }
    return Self(request: HTTPRequest(method: "GET", url: url, headers: ["Metadata-Flavor": "Google"]), retryClass: .idempotent)
  }
}
