/// Supplies the bearer token sent as `Authorization: Bearer <token>` with every request.
///
/// The client asks before each request; a provider caches as it sees fit. When the
/// server answers `UNAUTHENTICATED`, the client asks once more with `forceRefresh: true`
/// and retries. Returning `nil` sends no `Authorization` header.
public protocol TokenProvider: Sendable {
  /// The token to send, or `nil` for none.
  /// - Parameter forceRefresh: the previous token was rejected; do not return it again.
  func token(forceRefresh: Bool) async throws -> String?
}

/// A provider that always returns the same token.
///
/// ```swift
/// settings.tokenProvider = StaticTokenProvider("ya29.…")
/// ```
public struct StaticTokenProvider: TokenProvider {
  /// The token sent with every request.
  public let value: String?

  /// Creates a provider for a fixed token (`nil` sends no header).
  public init(_ value: String?) { self.value = value }

  /// The emulator's administrator token, `owner`, which bypasses security rules.
  public static let emulatorOwner = StaticTokenProvider("owner")

  public func token(forceRefresh: Bool) async throws -> String? { value }
}

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
