import FirestoreClient

/// A public meal plan from `mealPlans/{id}`. Whether the current
/// user starred it is not stored here: it is per user (see ``FavoritesRepository``).
///
/// A missing `title` decodes as an empty string (the seed force-cast it, and crashed);
/// the other fields are optional, as in the seed.
public struct MealPlan: Codable, Sendable, Hashable, Identifiable {
  /// The document ID (not stored as a field: the seed's redundant `docID` is gone).
  @DocumentID public var id: String?
  /// The plan's name.
  public var title: String
  /// Where the recipe comes from.
  public var recipeSource: String?
  /// How long it takes, as text.
  public var estimatedTime: String?
  /// The cover image's name or URL.
  public var coverImageView: String?
  /// Equipment needed.
  public var equipment: [String]?
  /// The steps.
  public var instructions: [String]?

  /// Creates a meal plan.
  public init(
    id: String? = nil, title: String, recipeSource: String? = nil, estimatedTime: String? = nil, coverImageView: String? = nil,
    equipment: [String]? = nil, instructions: [String]? = nil
  ) {
    self._id = DocumentID(wrappedValue: id)
    self.title = title
    self.recipeSource = recipeSource
    self.estimatedTime = estimatedTime
    self.coverImageView = coverImageView
    self.equipment = equipment
    self.instructions = instructions
  }

  private enum CodingKeys: String, CodingKey {
    case id, title, recipeSource, estimatedTime, coverImageView, equipment, instructions
  }

  /// Decodes leniently (see the type's summary).
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    _id = (try? c.decode(DocumentID<String>.self, forKey: .id)) ?? DocumentID(wrappedValue: nil)
    title = (try? c.decodeIfPresent(String.self, forKey: .title)) ?? ""
    recipeSource = try? c.decodeIfPresent(String.self, forKey: .recipeSource)
    estimatedTime = try? c.decodeIfPresent(String.self, forKey: .estimatedTime)
    coverImageView = try? c.decodeIfPresent(String.self, forKey: .coverImageView)
    equipment = try? c.decodeIfPresent([String].self, forKey: .equipment)
    instructions = try? c.decodeIfPresent([String].self, forKey: .instructions)
  }

  /// Encodes the fields that are set; ``id`` is the document's name, not a field.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(_id, forKey: .id)
    try c.encode(title, forKey: .title)
    try c.encodeIfPresent(recipeSource, forKey: .recipeSource)
    try c.encodeIfPresent(estimatedTime, forKey: .estimatedTime)
    try c.encodeIfPresent(coverImageView, forKey: .coverImageView)
    try c.encodeIfPresent(equipment, forKey: .equipment)
    try c.encodeIfPresent(instructions, forKey: .instructions)
  }
}
