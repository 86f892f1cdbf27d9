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
}

extension TokenProvider {
  /// No project: the default for providers whose tokens do not name one.
  public func projectID() async throws -> String? { nil }
}
