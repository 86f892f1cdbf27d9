import FirestorePlatform
import Foundation

/// Tells the readers of a token provider's ``TokenProvider/tokenUserChanges()`` who is
/// signed in after each change: a provider keeps one, returns ``changes()`` from
/// `tokenUserChanges()`, and calls ``announce(_:)`` after each sign-in and sign-out.
///
/// ```swift
/// final class MySignIn: TokenProvider {
///   private let announcer = TokenUserAnnouncer()
///   func tokenUserChanges() -> AsyncStream<TokenUser>? { announcer.changes() }
///   func signIn(...) async throws { ...; announcer.announce(currentTokenUser ?? .unauthenticated) }
/// }
/// ```
public final class TokenUserAnnouncer: Sendable {
  private let readers = Locked<[UUID: AsyncStream<TokenUser>.Continuation]>([:])

  /// An announcer nobody reads yet.
  public init() {}

  /// The users announced from now on, for as long as the stream is read; a reader that
  /// falls behind gets the latest only.
  public func changes() -> AsyncStream<TokenUser> {
    let (changes, continuation) = AsyncStream.makeStream(of: TokenUser.self, bufferingPolicy: .bufferingNewest(1))
    let id = UUID()
    continuation.onTermination = { [readers] _ in readers.withLock { $0[id] = nil } }
    readers.withLock { $0[id] = continuation }
    return changes
  }

  /// Tells every reader that `user` is signed in now.
  public func announce(_ user: TokenUser) {
    for reader in readers.withLock({ Array($0.values) }) { reader.yield(user) }
  }
}
