import Foundation

/// OAuth 2.0 access tokens for a user's Google account, from the refresh token that
/// `gcloud auth application-default login` stores: developer machines, acting with the
/// user's IAM roles (security rules bypassed).
///
/// Tokens are cached and refreshed five minutes before expiry; concurrent callers share
/// one refresh. Usually reached through ``ApplicationDefaultCredentials``.
///
/// ```swift
/// let provider = try AuthorizedUserTokenProvider(
///   credentials: AuthorizedUserCredentials(contentsOf: "/home/me/.config/gcloud/application_default_credentials.json"))
/// ```
public final class AuthorizedUserTokenProvider: TokenProvider, CustomStringConvertible, CustomReflectable {
  /// The user credentials.
  public let credentials: AuthorizedUserCredentials
  /// Where the refresh token is exchanged.
  public let tokenURL: URL
  let refresher: TokenRefresher

  /// Creates a provider.
  /// - Parameters:
  ///   - credentials: the client and refresh token.
  ///   - tokenURL: an explicitly configured token endpoint (a test server), which may be
  ///     plain `http`; by default the file's `token_uri`.
  ///   - transport: what carries the token requests.
  public init(credentials: AuthorizedUserCredentials, tokenURL: URL? = nil, transport: (any Transport)? = nil) throws(FirestoreError) {
    let url = tokenURL ?? credentials.tokenURI
    try TokenEndpointClient.checkScheme(url, allowHTTP: tokenURL != nil, what: "token endpoint")
    self.credentials = credentials
    self.tokenURL = url
    let client = TokenEndpointClient(transport: transport)
    refresher = TokenRefresher {
      let what = "token endpoint \(TokenEndpointClient.display(url)) (authorized user \(credentials.clientID))"
      return try await OAuthTokenExchange.post(
        form: [
          ("grant_type", "refresh_token"), ("client_id", credentials.clientID), ("client_secret", credentials.clientSecret),
          ("refresh_token", credentials.refreshToken),
        ], to: url, client: client, what: what,
        redaction: SecretRedaction(secrets: [credentials.refreshToken, credentials.clientSecret]))
    }
  }

  public func token(forceRefresh: Bool) async throws -> String? {
    try await refresher.token(forceRefresh: forceRefresh)
  }

  /// The file's `quota_project_id`, if any.
  public func projectID() async throws -> String? { credentials.quotaProjectID }

  /// `AuthorizedUserTokenProvider(client_id: …)`; no secret, no token.
  /// The signed-in Google account of these credentials, whichever access token it holds.
  public func user(for token: String?) -> TokenUser { .of(token, opaqueUser: authorizedUser) }

  public var currentTokenUser: TokenUser? { .authenticated(authorizedUser) }

  /// The account's identity: its OAuth client and a digest of its refresh token.
  private var authorizedUser: String {
    "authorized-user:" + credentials.clientID + "/" + TokenUser.of(credentials.refreshToken).storageKey
  }

  public var description: String { "AuthorizedUserTokenProvider(client_id: \(credentials.clientID))" }

  /// The client ID and endpoint only.
  public var customMirror: Mirror { Mirror(self, children: ["credentials": credentials, "tokenURL": tokenURL], displayStyle: .class) }
}
