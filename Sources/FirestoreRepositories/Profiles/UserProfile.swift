import FirestoreClient

/// The public profile at `users/{uid}`.
///
/// Decoding never fails on a missing or mistyped field: each falls back to
/// ``unavailable`` (the seed's fallback text), and `height`/`weight` stored as numbers read
/// as their decimal text. The profile picture's field is `profilePicture`, as in the seed.
///
/// ```swift
/// let profile = try snapshot.data(as: UserProfile.self)
/// ```
public struct UserProfile: Codable, Sendable, Hashable {
  /// The fallback for a missing field: `"Unavailable"`, as in the seed.
  public static let unavailable = "Unavailable"

  /// The user ID.
  public var uid: String
  /// The display name.
  public var name: String
  /// The gender, free text.
  public var gender: String
  /// The height, as entered (`"180"`, `"5'11\""`).
  public var height: String
  /// The weight, as entered.
  public var weight: String
  /// The user's stated goal.
  public var agenda: String
  /// The profile picture's URL (field `profilePicture`).
  public var profilePictureURL: String

  /// Creates a profile; omitted fields are ``unavailable``.
  public init(
    uid: String, name: String, gender: String = unavailable, height: String = unavailable, weight: String = unavailable,
    agenda: String = unavailable, profilePictureURL: String = unavailable
  ) {
    self.uid = uid
    self.name = name
    self.gender = gender
    self.height = height
    self.weight = weight
    self.agenda = agenda
    self.profilePictureURL = profilePictureURL
  }

  private enum CodingKeys: String, CodingKey {
    case uid, name, gender, height, weight, agenda
    case profilePictureURL = "profilePicture"
  }

  /// Decodes with the fallbacks described on the type.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    func text(_ key: CodingKeys) -> String {
      if let s = try? c.decodeIfPresent(String.self, forKey: key) { return s }
      if let i = try? c.decodeIfPresent(Int.self, forKey: key) { return String(i) }
      if let d = try? c.decodeIfPresent(Double.self, forKey: key) { return String(d) }
      return Self.unavailable
    }
    uid = text(.uid)
    name = text(.name)
    gender = text(.gender)
    height = text(.height)
    weight = text(.weight)
    agenda = text(.agenda)
    profilePictureURL = text(.profilePictureURL)
  }
}
