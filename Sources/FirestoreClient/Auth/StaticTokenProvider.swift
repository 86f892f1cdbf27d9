/// A provider that always returns the same token.
///
/// ```swift
/// settings.tokenProvider = StaticTokenProvider("ya29.…")
/// ```
///
/// Its description never shows the token.
public struct StaticTokenProvider: TokenProvider, CustomStringConvertible, CustomReflectable {
  /// The token sent with every request.
  public let value: String?

  /// The token's user, read from the token once: every write asks for it.
  private let tokenUser: TokenUser

  /// Creates a provider for a fixed token (`nil` sends no header).
  public init(_ value: String?) {
    self.value = value
    tokenUser = .of(value)
  }

  /// The emulator's administrator token, `owner`, which bypasses security rules.
  public static let emulatorOwner = StaticTokenProvider("owner")

  public func token(forceRefresh: Bool) async throws -> String? { value }

  /// The token's user, known without asking.
  public var currentTokenUser: TokenUser? { tokenUser }

  /// `StaticTokenProvider(<redacted>)`, or `StaticTokenProvider(nil)`.
  public var description: String { value == nil ? "StaticTokenProvider(nil)" : "StaticTokenProvider(<redacted>)" }

  /// No children, so `dump` and debuggers do not show the token either.
  public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
