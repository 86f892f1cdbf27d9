/// With `JSONEncoder` and other general coders a timestamp is
/// `{"seconds": …, "nanoseconds": …}`. The Firestore coders never call these methods:
/// they keep a `Timestamp` as it is, so Firestore stores a native timestamp.
extension Timestamp: Codable {
  private enum CodingKeys: String, CodingKey {
    case seconds
    case nanoseconds
  }

  /// Reads `seconds` and `nanoseconds`; nanoseconds outside `0..<1e9` are normalised.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      seconds: try container.decode(Int64.self, forKey: .seconds),
      nanoseconds: try container.decode(Int32.self, forKey: .nanoseconds))
  }

  /// Writes `seconds` and `nanoseconds`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(seconds, forKey: .seconds)
    try container.encode(nanoseconds, forKey: .nanoseconds)
  }
}
