/// The private part of a profile at `users/{uid}/privateUserInfo/private`: what only the
/// user reads.
///
/// A missing or mistyped `email` decodes as ``UserProfile/unavailable``.
public struct PrivateUserInfo: Codable, Sendable, Hashable {
  /// The sign-in email address.
  public var email: String

  /// Creates the record.
  public init(email: String) {
    self.email = email
  }

  private enum CodingKeys: String, CodingKey {
    case email
  }

  /// Decodes with the fallback described on the type.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    email = (try? c.decodeIfPresent(String.self, forKey: .email)) ?? UserProfile.unavailable
  }
}
