/// An optional property that ``Firestore/Encoder`` writes as a null field when it is `nil`,
/// instead of leaving the field out: the field is then always present in the document.
///
/// ```swift
/// struct Profile: Codable {
///   var name: String
///   @ExplicitNull var nickname: String?  // stored as null while nil
/// }
/// ```
///
/// Decoding reads null (and, unlike the Apple SDK, which fails then, a missing field) as `nil`.
@propertyWrapper
public struct ExplicitNull<Value> {
  /// The value, or `nil` (stored as null).
  public var wrappedValue: Value?

  /// Creates the property.
  public init(wrappedValue: Value?) {
    self.wrappedValue = wrappedValue
  }
}

/// Sendable when the value is.
extension ExplicitNull: Sendable where Value: Sendable {}

/// Equal when the wrapped values are equal.
extension ExplicitNull: Equatable where Value: Equatable {}

/// Hashes the wrapped value.
extension ExplicitNull: Hashable where Value: Hashable {}

extension ExplicitNull: Encodable where Value: Encodable {
  /// Writes the value, or null when it is `nil`.
  public func encode(to encoder: any Encoder) throws {
    try encoder.encodeOptional(wrappedValue)
  }
}

extension ExplicitNull: Decodable where Value: Decodable {
  /// Reads the value; null is `nil`.
  public init(from decoder: any Decoder) throws {
    wrappedValue = try decoder.decodeOptional(Value.self)
  }
}

extension KeyedDecodingContainer {
  /// Decodes an ``ExplicitNull`` whose field is missing as `nil`, instead of failing.
  ///
  /// Synthesized `init(from:)` calls this overload for `@ExplicitNull` properties.
  public func decode<Value: Decodable>(_ type: ExplicitNull<Value>.Type, forKey key: Key) throws -> ExplicitNull<Value> {
    try decodeIfPresent(type, forKey: key) ?? ExplicitNull(wrappedValue: nil)
  }
}
