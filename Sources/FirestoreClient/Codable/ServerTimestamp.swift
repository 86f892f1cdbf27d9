import Foundation

/// A type a ``ServerTimestamp`` property can hold: `Date` or ``Timestamp``.
public protocol ServerTimestampWrappable {
  /// The value for a timestamp read from Firestore.
  static func wrap(_ timestamp: Timestamp) throws -> Self

  /// The timestamp to store for `value`.
  static func unwrap(_ value: Self) throws -> Timestamp
}

extension Date: ServerTimestampWrappable {
  /// The timestamp's `Date` (precision below a microsecond may be lost).
  public static func wrap(_ timestamp: Timestamp) throws -> Date { timestamp.dateValue() }

  /// The date's timestamp, rounded to the microsecond.
  public static func unwrap(_ value: Date) throws -> Timestamp { Timestamp(date: value) }
}

extension Timestamp: ServerTimestampWrappable {
  /// The timestamp itself.
  public static func wrap(_ timestamp: Timestamp) throws -> Timestamp { timestamp }

  /// The timestamp itself.
  public static func unwrap(_ value: Timestamp) throws -> Timestamp { value }
}

/// A timestamp property that the server fills in when it is written as `nil`.
///
/// With ``Firestore/Encoder``, `nil` encodes as `FieldValue.serverTimestamp()`, so the
/// write stores the commit time; a value encodes as itself. Decoding reads the timestamp,
/// and a null or missing field as `nil`.
///
/// Other coders (say `JSONEncoder` for a local cache) store it like an optional value:
/// `nil` as null, since a server timestamp means nothing outside a Firestore write.
///
/// ```swift
/// struct Message: Codable {
///   var text: String
///   @ServerTimestamp var sentAt: Date?
/// }
///
/// // Stores the server's commit time in "sentAt".
/// try await ref.setData(try Firestore.Encoder().encode(Message(text: "hi")))
/// ```
@propertyWrapper
public struct ServerTimestamp<Value: ServerTimestampWrappable & Codable & Sendable>: Codable, Sendable {
  /// The timestamp, or `nil` until the server has set one.
  public var wrappedValue: Value?

  /// Creates the property; `nil` asks the server for its timestamp when written.
  public init(wrappedValue: Value?) {
    self.wrappedValue = wrappedValue
  }

  /// Reads the timestamp; null is `nil`.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      wrappedValue = nil
    } else if let decoder = decoder as? ValueDecoder, let timestamp = decoder.value as? Timestamp {
      wrappedValue = try Value.wrap(timestamp)
    } else {
      wrappedValue = try container.decode(Value.self)
    }
  }

  /// Writes the value, or for ``Firestore/Encoder`` `FieldValue.serverTimestamp()` when `nil`.
  public func encode(to encoder: any Encoder) throws {
    guard encoder is ValueEncoder else { return try encoder.encodeOptional(wrappedValue) }
    var container = encoder.singleValueContainer()
    switch wrappedValue {
    case nil: try container.encode(FieldValue.serverTimestamp())
    // Stored natively whatever the encoder's date strategy, as in the Apple SDK: a Date as
    // itself unless a strategy would turn it into something else, then as its timestamp.
    case let date as Date where (encoder as? ValueEncoder)?.options.dateStrategy.isTimestamp == true: try container.encode(date)
    case let value?: try container.encode(Value.unwrap(value))
    }
  }
}

/// Equal when the wrapped values are equal.
extension ServerTimestamp: Equatable where Value: Equatable {}

/// Hashes the wrapped value.
extension ServerTimestamp: Hashable where Value: Hashable {}

extension KeyedDecodingContainer {
  /// Decodes a ``ServerTimestamp`` whose field is missing as `nil`, instead of failing.
  ///
  /// Synthesized `init(from:)` calls this overload for `@ServerTimestamp` properties.
  public func decode<Value>(_ type: ServerTimestamp<Value>.Type, forKey key: Key) throws -> ServerTimestamp<Value> {
    try decodeIfPresent(type, forKey: key) ?? ServerTimestamp(wrappedValue: nil)
  }
}
