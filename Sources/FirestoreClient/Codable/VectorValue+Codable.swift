/// With `JSONEncoder` and other general coders a vector is its array of numbers. The
/// Firestore coders never call these methods: they keep a `VectorValue` as it is, so
/// Firestore stores a native vector.
extension VectorValue: Codable {
  /// Reads an array of numbers.
  public init(from decoder: any Decoder) throws {
    self.init(try decoder.singleValueContainer().decode([Double].self))
  }

  /// Writes the array of numbers.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(array)
  }
}
