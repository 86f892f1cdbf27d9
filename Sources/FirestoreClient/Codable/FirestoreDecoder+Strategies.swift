import Foundation

extension Firestore.Decoder {
  /// How a `Date` is read. The names follow the Apple SDK (`FirebaseDataDecoder`'s).
  public enum DateDecodingStrategy: Sendable {
    /// From a Firestore timestamp: the default.
    case timestamp
    /// Through `Date`'s own `init(from:)`: a number of seconds since 2001-01-01.
    case deferredToDate
    /// From a number of seconds since 1970-01-01.
    case secondsSince1970
    /// From a number of milliseconds since 1970-01-01.
    case millisecondsSince1970
    /// From an ISO 8601 string.
    case iso8601
    /// From a string in the formatter's format.
    case formatted(DateFormatter)
    /// By this closure, which reads the date from the decoder it is given.
    case custom(@Sendable (any Swift.Decoder) throws -> Date)
  }

  /// How `Data` is read.
  public enum DataDecodingStrategy: Sendable {
    /// From Firestore bytes: the default.
    case blob
    /// From a Base64 string.
    case base64
    /// Through `Data`'s own `init(from:)`: an array of byte values.
    case deferredToData
    /// By this closure, which reads the data from the decoder it is given.
    case custom(@Sendable (any Swift.Decoder) throws -> Data)
  }

  /// Whether strings stand for infinite and NaN floating-point values.
  public enum NonConformingFloatDecodingStrategy: Sendable {
    /// Only numbers decode as numbers: the default. (Infinities and NaN stored as
    /// numbers decode as they are.)
    case `throw`
    /// These strings decode as infinity, minus infinity and NaN.
    case convertFromString(positiveInfinity: String, negativeInfinity: String, nan: String)
  }

  /// How field names are matched to the property names of decoded types. String-keyed
  /// dictionaries keep their keys whatever the strategy, as in the Apple SDK.
  public enum KeyDecodingStrategy: Sendable {
    /// Field name and property name are the same: the default.
    case useDefaultKeys
    /// `snake_case` fields to `camelCase` properties: `image_url` → `imageUrl`,
    /// `first_name` → `firstName`.
    case convertFromSnakeCase
    /// By this closure, given the full coding path ending in the field's name; the key it
    /// returns names the property.
    case custom(@Sendable (_ codingPath: [any CodingKey]) -> any CodingKey)
  }
}
