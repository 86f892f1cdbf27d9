/// Supplies the bearer token sent as `Authorization: Bearer <token>` with every request.
///
/// The client asks before each request; a provider caches as it sees fit. When the
/// server answers `UNAUTHENTICATED`, the client asks once more with `forceRefresh: true`
/// and retries. Returning `nil` sends no `Authorization` header.
///
/// The library's providers, by what they stand for:
/// - the server itself, bypassing security rules (IAM): ``ServiceAccountTokenProvider``,
///   ``AuthorizedUserTokenProvider``, ``MetadataServerTokenProvider``, found for you by
///   ``ApplicationDefaultCredentials``;
/// - an end user, under security rules: ``FirebaseAuthTokenProvider`` (signs in through
///   Firebase Auth) and ``IDTokenProvider`` (an ID token the app already has);
/// - the emulator: ``EmulatorTokenProvider`` (`owner`, or a user for rules tests).
///
/// A provider's errors and descriptions never contain a token, key or password.
public protocol TokenProvider: Sendable {
  /// The token to send, or `nil` for none.
  /// - Parameter forceRefresh: the previous token was rejected; do not return it again.
  func token(forceRefresh: Bool) async throws -> String?

  /// The Google Cloud project the credentials belong to, when they name one (a service
  /// account key's `project_id`, the metadata server's project, an ID token's audience).
  ///
  /// ``Firestore/init(database:settings:)`` uses it when no project ID is given. The
  /// default implementation returns `nil`.
  func projectID() async throws -> String?

  /// The user `token` (a token this provider returned, or `nil` for none) stands for.
  ///
  /// Queued writes remember their user and are sent only with a token whose user is the
  /// same, across processes that share a persistent cache too. The default reads
  /// ``TokenUser/of(_:opaqueUser:)``: a JWT's subject, else the token's digest. A provider
  /// whose tokens are opaque and change (OAuth access tokens) returns its one identity.
  func user(for token: String?) -> TokenUser

  /// Who is signed in now, when the provider knows without fetching a token (after a
  /// sign-in or sign-out); `nil` when only a token tells. Writes made after a change are
  /// queued for the new user at once. The default returns `nil`.
  var currentTokenUser: TokenUser? { get }

  /// The users ``currentTokenUser`` names from now on, one each time it changes (a sign-in,
  /// a sign-out), for a provider that knows when that happens; `nil` when only a token or
  /// ``currentTokenUser`` tells. The client follows each change at once, as the Apple SDK
  /// follows its credentials: listeners stop showing the writes of the user before, and
  /// real-time listens reopen with the new user's token. The default returns `nil`.
  func tokenUserChanges() -> AsyncStream<TokenUser>?
}

extension TokenProvider {
  /// No project: the default for providers whose tokens do not name one.
  public func projectID() async throws -> String? { nil }

  /// A JWT's subject, else the token's digest (see ``TokenUser/of(_:opaqueUser:)``).
  public func user(for token: String?) -> TokenUser { .of(token) }

  /// Unknown until a token is fetched.
  public var currentTokenUser: TokenUser? { nil }

  /// No announcements: the client learns of a change from the tokens it fetches and from
  /// ``currentTokenUser``.
  public func tokenUserChanges() -> AsyncStream<TokenUser>? { nil }
}
