import FirestoreWire
import Foundation

/// OAuth 2.0 access tokens for a service account, from its key file: the credentials of
/// servers and tools, which act with the account's IAM roles and bypass security rules.
///
/// The provider signs an RS256 JWT assertion (issuer and subject the account's email,
/// audience the token URI, scope `https://www.googleapis.com/auth/datastore`, one hour
/// lifetime) and exchanges it at the key's `token_uri`. The access token is cached and
/// refreshed five minutes before it expires; concurrent callers share one refresh.
///
/// ```swift
/// let provider = try ServiceAccountTokenProvider(contentsOf: "/secrets/key.json")
/// let settings = FirestoreSettings()
/// settings.tokenProvider = provider
/// let db = try await Firestore(settings: settings)  // project from the key's project_id
/// ```
///
/// Errors name the account and the endpoint, never the key, the assertion or a token.
public final class ServiceAccountTokenProvider: TokenProvider, CustomStringConvertible, CustomReflectable {
  /// The scope Firestore needs.
  public static let datastoreScope = "https://www.googleapis.com/auth/datastore"
  /// The assertion's lifetime: Google accepts at most one hour.
  static let assertionLifetime = 3600

  /// The account whose tokens this provider mints.
  public let credentials: ServiceAccountCredentials
  /// The OAuth scopes requested.
  public let scopes: [String]
  /// Where the assertion is exchanged: the key's `token_uri`, or the override.
  public let tokenURL: URL
  let refresher: TokenRefresher

  /// Creates a provider for parsed credentials.
  ///
  /// - Parameters:
  ///   - credentials: the service account key.
  ///   - scopes: the scopes to request; Firestore needs ``datastoreScope``.
  ///   - tokenURL: an explicitly configured token endpoint (a test server), which may be
  ///     plain `http`; by default the key's `token_uri`, which must be `https`.
  ///   - transport: what carries the token requests; the shared URLSession transport by default.
  public convenience init(
    credentials: ServiceAccountCredentials, scopes: [String] = [datastoreScope], tokenURL: URL? = nil, transport: (any Transport)? = nil
  ) throws(FirestoreError) {
    try self.init(credentials: credentials, scopes: scopes, tokenURL: tokenURL, transport: transport, now: { .now })
  }

  /// Reads the key file at `path` and creates a provider for it.
  /// - Throws: ``FirestoreError`` naming the file and the field when the key cannot be used.
  public convenience init(contentsOf path: String, transport: (any Transport)? = nil) throws(FirestoreError) {
    try self.init(credentials: ServiceAccountCredentials(contentsOf: path), transport: transport)
  }

  init(
    credentials: ServiceAccountCredentials, scopes: [String] = [datastoreScope], tokenURL: URL? = nil, transport: (any Transport)?,
    now: @escaping @Sendable () -> ContinuousClock.Instant
  ) throws(FirestoreError) {
    let url = tokenURL ?? credentials.tokenURI
    try TokenEndpointClient.checkScheme(url, allowHTTP: tokenURL != nil, what: "token endpoint")
    guard !scopes.isEmpty else { throw .invalidArgument("a service account token needs at least one scope") }
    self.credentials = credentials
    self.scopes = scopes
    self.tokenURL = url
    let client = TokenEndpointClient(transport: transport)
    refresher = TokenRefresher(now: now) {
      try await Self.exchange(credentials: credentials, scopes: scopes, tokenURL: url, client: client)
    }
  }

  public func token(forceRefresh: Bool) async throws -> String? {
    try await refresher.token(forceRefresh: forceRefresh)
  }

  /// The key's `project_id`.
  public func projectID() async throws -> String? { credentials.projectID }

  /// The signed assertion for `now` (seconds since 1970).
  static func assertion(credentials: ServiceAccountCredentials, scopes: [String], audience: URL, issuedAt: Int) throws(FirestoreError)
    -> String
  {
    let claims = JSONValue.object([
      ("iss", .string(credentials.clientEmail)),
      ("sub", .string(credentials.clientEmail)),
      ("aud", .string(audience.absoluteString)),
      ("scope", .string(scopes.joined(separator: " "))),
      ("iat", .integer(Int64(issuedAt))),
      ("exp", .integer(Int64(issuedAt + assertionLifetime))),
    ])
    let header: [(String, JSONValue)] = credentials.privateKeyID.map { [("kid", .string($0))] } ?? []
    do {
      return try JWT.signRS256(header: header, claims: claims, key: credentials.privateKey)
    } catch {
      throw FirestoreError(.internal, "cannot sign the assertion for service account \(credentials.clientEmail): \(error)")
    }
  }

  private static func exchange(
    credentials: ServiceAccountCredentials, scopes: [String], tokenURL: URL, client: TokenEndpointClient
  ) async throws -> TokenRefresher.Fetched {
    let assertion = try assertion(
      credentials: credentials, scopes: scopes, audience: tokenURL, issuedAt: Int(Date().timeIntervalSince1970))
    let what = "token endpoint \(TokenEndpointClient.display(tokenURL)) (service account \(credentials.clientEmail))"
    return try await OAuthTokenExchange.post(
      form: [("grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"), ("assertion", assertion)], to: tokenURL, client: client,
      what: what, redaction: SecretRedaction(secrets: [assertion]))
  }

  /// `ServiceAccountTokenProvider(client_email: …)`; no key, no token.
  /// The service account, whichever access token it currently holds.
  public func user(for token: String?) -> TokenUser {
    .of(token, opaqueUser: "service-account:" + credentials.clientEmail)
  }

  public var currentTokenUser: TokenUser? { .authenticated("service-account:" + credentials.clientEmail) }

  public var description: String { "ServiceAccountTokenProvider(client_email: \(credentials.clientEmail))" }

  /// The account and endpoint only, so `dump` and debuggers never show a secret.
  public var customMirror: Mirror {
    Mirror(self, children: ["credentials": credentials, "scopes": scopes, "tokenURL": tokenURL], displayStyle: .class)
  }
}
