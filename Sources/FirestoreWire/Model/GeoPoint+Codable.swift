/// With `JSONEncoder` and other general coders a geo point is
/// `{"latitude": …, "longitude": …}`. The Firestore coders never call these methods:
/// they keep a `GeoPoint` as it is, so Firestore stores a native geo point.
extension GeoPoint: Codable {
  private enum CodingKeys: String, CodingKey {
    case latitude
    case longitude
  }

  /// Reads `latitude` and `longitude`; the range is checked when the point is written.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      latitude: try container.decode(Double.self, forKey: .latitude),
      longitude: try container.decode(Double.self, forKey: .longitude))
  }

  /// Writes `latitude` and `longitude`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(latitude, forKey: .latitude)
    try container.encode(longitude, forKey: .longitude)
  }
}
