import FirestoreClient
import FirestorePlatform
import Foundation

/// A token provider whose user a test switches, as a sign-in flow does: `token(uid)` for
/// the user signed in, none when signed out. With `announces`, it tells the client of each
/// change as ``FirebaseAuthTokenProvider`` does (``TokenProvider/tokenUserChanges()``);
/// without, the client learns of it from the tokens it fetches and ``currentTokenUser``.
public final class SwitchingTokenProvider: TokenProvider {
  private let current = Locked<String?>(nil)
  private let makeToken: @Sendable (String) -> String
  private let announces: Bool
  private let observers = Locked<[UUID: AsyncStream<TokenUser>.Continuation]>([:])

  /// A provider signed out until ``signIn(_:)``.
  public init(announces: Bool = false, token: @escaping @Sendable (String) -> String) {
    self.announces = announces
    makeToken = token
  }

  /// Signs in as `uid`, or signs out with `nil`; an announcing provider then says so.
  public func signIn(_ uid: String?) {
    current.withLock { $0 = uid.map(makeToken) }
    guard announces, let user = currentTokenUser else { return }
    for observer in observers.withLock({ Array($0.values) }) { observer.yield(user) }
  }

  public func token(forceRefresh: Bool) async throws -> String? { current.value }

  public var currentTokenUser: TokenUser? { user(for: current.value) }

  public func tokenUserChanges() -> AsyncStream<TokenUser>? {
    guard announces else { return nil }
    let (changes, continuation) = AsyncStream.makeStream(of: TokenUser.self)
    let id = UUID()
    continuation.onTermination = { [observers] _ in observers.withLock { $0[id] = nil } }
    observers.withLock { $0[id] = continuation }
    return changes
  }
}
