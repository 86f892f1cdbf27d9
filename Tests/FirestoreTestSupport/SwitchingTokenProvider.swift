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
  private let announcer: TokenUserAnnouncer?

  /// A provider signed out until ``signIn(_:)``.
  public init(announces: Bool = false, token: @escaping @Sendable (String) -> String) {
    announcer = announces ? TokenUserAnnouncer() : nil
    makeToken = token
  }

  /// Signs in as `uid`, or signs out with `nil`; an announcing provider then says so.
  public func signIn(_ uid: String?) {
    current.withLock { $0 = uid.map(makeToken) }
    if let announcer, let user = currentTokenUser { announcer.announce(user) }
  }

  /// Announces `uid`'s sign-in (`nil`: a sign-out) without making it: an announcement
  /// read after a later change, as a reader that fell behind reads one.
  public func announceLate(_ uid: String?) {
    announcer?.announce(user(for: uid.map(makeToken)))
  }

  /// The signed-in user's token, or `nil` when signed out.
  public func token(forceRefresh: Bool) async throws -> String? { current.value }

  /// The user of the token the provider hands out now.
  public var currentTokenUser: TokenUser? { user(for: current.value) }

  /// Each sign-in and sign-out, when the provider announces them.
  public func tokenUserChanges() -> AsyncStream<TokenUser>? { announcer?.changes() }
}
