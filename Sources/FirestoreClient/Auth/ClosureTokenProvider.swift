/// A provider backed by a closure, for tokens that come from elsewhere in the app.
///
/// ```swift
/// settings.tokenProvider = ClosureTokenProvider { forceRefresh in
///   try await auth.currentToken(refresh: forceRefresh)
/// }
/// ```
///
/// Queued writes are sent only with a token of the user who made them: by default a JWT's
/// subject, else the token itself, says who that is. Tokens that are opaque and change for
/// one user (OAuth access tokens) need `user`, or each new token would hold back the writes
/// queued under the previous one.
public struct ClosureTokenProvider: TokenProvider {
  private let body: @Sendable (Bool) async throws -> String?
  private let userOfToken: (@Sendable (String?) -> TokenUser)?

  /// Creates a provider.
  /// - Parameters:
  ///   - user: who a token stands for; `nil` reads it from the token.
  ///   - body: returns the token; it receives `forceRefresh`.
  public init(
    user: (@Sendable (_ token: String?) -> TokenUser)? = nil,
    _ body: @escaping @Sendable (_ forceRefresh: Bool) async throws -> String?
  ) {
    self.body = body
    userOfToken = user
  }

  public func token(forceRefresh: Bool) async throws -> String? { try await body(forceRefresh) }

  /// What `user` says, or the token's subject or digest.
  public func user(for token: String?) -> TokenUser { userOfToken?(token) ?? .of(token) }
}
