import Foundation

extension Firestore.Encoder {
  /// How a `Date` is written. The names follow the Apple SDK (`FirebaseDataEncoder`'s).
  public enum DateEncodingStrategy: Sendable {
    /// As a Firestore timestamp: the encoded data holds `Timestamp(date:)` (microsecond
    /// precision), as the Apple SDK's does. The default.
    case timestamp
    /// Through `Date`'s own `encode(to:)`: a double of seconds since 2001-01-01.
    case deferredToDate
    /// As a double of seconds since 1970-01-01.
    case secondsSince1970
    /// As a double of milliseconds since 1970-01-01.
    case millisecondsSince1970
    /// As an ISO 8601 string (`2024-05-01T12:00:00Z`).
    case iso8601
    /// As a string in the formatter's format.
    case formatted(DateFormatter)
    /// By this closure, which encodes the date into the encoder it is given (encoding
    /// nothing stores an empty map).
    case custom(@Sendable (Date, any Swift.Encoder) throws -> Void)
  }

  /// How `Data` is written.
  public enum DataEncodingStrategy: Sendable {
    /// As Firestore bytes: the default.
    case blob
    /// As a Base64 string.
    case base64
    /// Through `Data`'s own `encode(to:)`: an array of byte values.
    case deferredToData
    /// By this closure, which encodes the data into the encoder it is given.
    case custom(@Sendable (Data, any Swift.Encoder) throws -> Void)
  }

  /// What happens to a `Double` or `Float` that is infinite or NaN.
  public enum NonConformingFloatEncodingStrategy: Sendable {
    /// Encoding fails with `invalidArgument` naming the field: the default, as in the Apple
    /// SDK. (Firestore itself stores NaN and infinities; write them with `setData` directly.)
    case `throw`
    /// Stored as these strings.
    case convertToString(positiveInfinity: String, negativeInfinity: String, nan: String)
  }

  /// How the property names of encoded types become field names. String-keyed
  /// dictionaries keep their keys whatever the strategy, as in the Apple SDK.
  public enum KeyEncodingStrategy: Sendable {
    /// The property name as it is: the default.
    case useDefaultKeys
    /// `camelCase` to `snake_case`: `imageURL` → `image_url`, `userID2` → `user_id2`.
    case convertToSnakeCase
    /// By this closure, given the full coding path; the last key's name is used.
    case custom(@Sendable (_ codingPath: [any CodingKey]) -> any CodingKey)
  }
}

extension Firestore.Encoder.DateEncodingStrategy {
  /// Whether dates are stored as Firestore timestamps.
  var isTimestamp: Bool {
    if case .timestamp = self { return true }
    return false
  }
}
