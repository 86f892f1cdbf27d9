/// A provider backed by a closure, for tokens that come from elsewhere in the app.
///
/// ```swift
/// settings.tokenProvider = ClosureTokenProvider { forceRefresh in
///   try await auth.currentToken(refresh: forceRefresh)
/// }
/// ```
public struct ClosureTokenProvider: TokenProvider {
  private let body: @Sendable (Bool) async throws -> String?

  /// Creates a provider; `body` receives `forceRefresh`.
  public init(_ body: @escaping @Sendable (_ forceRefresh: Bool) async throws -> String?) { self.body = body }

  public func token(forceRefresh: Bool) async throws -> String? { try await body(forceRefresh) }
}
