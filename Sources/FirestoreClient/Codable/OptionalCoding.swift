/// How the property wrappers (``DocumentID``, ``ServerTimestamp``, ``ExplicitNull``) store
/// their optional value in coders other than Firestore's: as a single value, `nil` as null.
extension Decoder {
  /// Reads a single value; null is `nil`.
  func decodeOptional<Value: Decodable>(_ type: Value.Type) throws -> Value? {
    let container = try singleValueContainer()
    return container.decodeNil() ? nil : try container.decode(type)
  }
}

extension Encoder {
  /// Writes a single value, or null when it is `nil`.
  func encodeOptional<Value: Encodable>(_ value: Value?) throws {
    var container = singleValueContainer()
    if let value {
      try container.encode(value)
    } else {
      try container.encodeNil()
    }
  }
}
