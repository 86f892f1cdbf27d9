/// The user a ``FirebaseAuthTokenProvider`` is signed in as.
public struct FirebaseAuthUser: Sendable, Equatable, CustomStringConvertible {
  /// The user ID, what security rules see as `request.auth.uid`.
  public var uid: String
  /// The email address, for email/password users.
  public var email: String?
  /// Whether the user signed in anonymously.
  public var isAnonymous: Bool

  /// Creates a user value.
  public init(uid: String, email: String? = nil, isAnonymous: Bool) {
    self.uid = uid
    self.email = email
    self.isAnonymous = isAnonymous
  }

  /// `FirebaseAuthUser(uid: …)`, with the email or `anonymous`.
  public var description: String {
    "FirebaseAuthUser(uid: \(uid)" + (email.map { ", email: \($0)" } ?? "") + (isAnonymous ? ", anonymous" : "") + ")"
  }
}
