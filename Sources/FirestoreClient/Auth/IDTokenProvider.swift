import FirestorePlatform
import FirestoreWire
import Foundation

/// A Firebase ID token the app already has (from its own sign-in flow or a backend),
/// sent as an end user's credentials: security rules apply.
///
/// Give it a `refresh` closure and it calls that when the token is five minutes from the
/// `exp` in its claims, or when the server rejects it; concurrent callers share one
/// refresh. Without one, it sends the token it has; ``setIDToken(_:)`` replaces it.
///
/// ```swift
/// let provider = IDTokenProvider(idToken: signInResult.idToken) {
///   try await myBackend.freshIDToken()
/// }
/// let settings = FirestoreSettings()
/// settings.tokenProvider = provider
/// let db = try await Firestore(settings: settings)  // project from the token's audience
/// ```
///
/// The description shows the token's subject (the user ID), never the token.
public final class IDTokenProvider: TokenProvider, CustomStringConvertible, CustomReflectable {
  private let current: Locked<String>
  private let refresher: TokenRefresher?

  /// Creates a provider.
  /// - Parameters:
  ///   - idToken: the ID token (a JWT).
  ///   - refresh: returns a new ID token; `nil` when the app replaces tokens itself.
  public convenience init(idToken: String, refresh: (@Sendable () async throws -> String)? = nil) {
    self.init(idToken: idToken, now: { .now }, refresh: refresh)
  }

  /// Creates a provider whose token cache reads the time from `now` (a clock tests move).
  init(idToken: String, now: @escaping @Sendable () -> ContinuousClock.Instant, refresh: (@Sendable () async throws -> String)?) {
    let current = Locked(idToken)
    self.current = current
    refresher = refresh.map { refresh in
      TokenRefresher(initial: .init(value: idToken, lifetime: Self.lifetime(of: idToken)), now: now) {
        let token = try await refresh()
        current.withLock { $0 = token }
        return TokenRefresher.Fetched(value: token, lifetime: Self.lifetime(of: token))
      }
    }
  }

  /// Replaces the token; later requests send the new one.
  public func setIDToken(_ idToken: String) async {
    current.withLock { $0 = idToken }
    await refresher?.store(.init(value: idToken, lifetime: Self.lifetime(of: idToken)))
  }

  public func token(forceRefresh: Bool) async throws -> String? {
    guard let refresher else { return current.value }
    return try await refresher.token(forceRefresh: forceRefresh)
  }

  /// The subject of the token it holds now (replaced by ``setIDToken(_:)``).
  public var currentTokenUser: TokenUser? { user(for: current.value) }

  /// The token's audience (`aud`), which for Firebase ID tokens is the project ID.
  public func projectID() async throws -> String? {
    JWT.claims(of: current.value)?["aud"]?.stringValue
  }

  /// The time left before the token's `exp`, or `nil` when it has none.
  static func lifetime(of token: String) -> Duration? {
    guard let claims = JWT.claims(of: token), let exp = JWT.numericDate(claims, "exp"), exp.isFinite else { return nil }
    // Clamped: a token claiming to live for 1e300 seconds must not trap the conversion.
    let seconds = min(max(0, exp - Date().timeIntervalSince1970), 1e9)
    return .milliseconds(Int64(seconds * 1000))
  }

  /// `IDTokenProvider(uid: …)`: the token's subject, never the token.
  public var description: String {
    "IDTokenProvider(uid: \(JWT.claims(of: current.value)?["sub"]?.stringValue ?? "unknown"))"
  }

  /// No children, so `dump` and debuggers never show the token.
  public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .class) }
}
