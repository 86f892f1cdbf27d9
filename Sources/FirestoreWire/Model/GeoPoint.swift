/// A geographical point: latitude in `-90...90`, longitude in `-180...180` degrees.
///
/// The initializer stores any values; the client rejects an out-of-range point with an
/// `invalidArgument` error when it is written, as Firestore would.
///
/// With `JSONEncoder` and other general coders a geo point is
/// `{"latitude": …, "longitude": …}`. The Firestore coders never use that form: they keep a
/// `GeoPoint` as it is, so Firestore stores a native geo point.
public struct GeoPoint: Sendable, Hashable, Codable, CustomStringConvertible {
  /// Degrees north of the equator, `-90...90`.
  public var latitude: Double
  /// Degrees east of Greenwich, `-180...180`.
  public var longitude: Double

  /// Creates a point from degrees.
  public init(latitude: Double, longitude: Double) {
    self.latitude = latitude
    self.longitude = longitude
  }

  /// Whether both coordinates are finite and in range.
  public var isValid: Bool {
    (-90.0...90.0).contains(latitude) && (-180.0...180.0).contains(longitude)
  }

  public var description: String { "GeoPoint(\(latitude), \(longitude))" }
}
