import Foundation

extension Firestore {
  /// Encodes `Encodable` values into document data for `setData` and `updateData`.
  ///
  /// The result is the `[String: any Sendable]` tree the write methods accept:
  /// - structs, classes and `[String: …]` dictionaries become `[String: any Sendable]`,
  ///   and arrays (and other unkeyed values) `[any Sendable]`;
  /// - `Date`, `Data`, ``Timestamp``, ``GeoPoint``, ``VectorValue``, ``DocumentReference``
  ///   and ``FieldValue`` are kept as they are, so Firestore stores them natively;
  /// - integers of any width become `Int`; an unsigned value above `Int64.max` is an error;
  ///   `Float` becomes `Double`; a `URL` becomes its absolute string; enums with raw
  ///   values are stored as their raw values;
  /// - `nil` optionals are left out, or written as `NSNull()` when ``encodesNilAsNull``
  ///   is set (a `nil` inside an array is always `NSNull()`);
  /// - `@DocumentID` properties are never written; a `nil` `@ServerTimestamp` becomes
  ///   `FieldValue.serverTimestamp()`.
  ///
  /// Only a value that encodes as keyed data (a struct, class or dictionary) can be a
  /// document. Every error is a ``FirestoreError`` with code `invalidArgument` whose message
  /// names the field, e.g. `cannot encode Account: field "balance" has integer
  /// 18446744073709551615, which does not fit in a 64-bit signed integer`.
  ///
  /// ```swift
  /// struct City: Codable {
  ///   @DocumentID var id: String?
  ///   var name: String
  ///   var population: Int
  ///   var location: GeoPoint
  /// }
  ///
  /// let data = try Firestore.Encoder().encode(city)
  /// try await db.collection("cities").document("SF").setData(data)
  /// ```
  public struct Encoder: Sendable {
    /// Whether a `nil` optional property is written as `NSNull()` (a null field) instead of
    /// being left out. `false` by default, so a merging write keeps what is stored.
    public var encodesNilAsNull = false

    /// Values that the encoded types' `encode(to:)` can read from `encoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// Creates an encoder with default settings.
    public init() {}

    /// Encodes `value` as the fields of a document.
    ///
    /// - Parameter value: a struct, class or `[String: …]` dictionary.
    /// - Returns: the document data, for `setData` or `updateData`.
    /// - Throws: ``FirestoreError`` (`invalidArgument`) when `value` does not encode as
    ///   keyed data, when an integer does not fit in 64 signed bits, or when the value's
    ///   own `encode(to:)` fails (for example a ``DocumentReference`` given to another
    ///   encoder inside it); the message names the field path.
    public func encode<T: Encodable>(_ value: T) throws -> [String: any Sendable] {
      let options = ValueEncoder.Options(encodesNilAsNull: encodesNilAsNull, userInfo: userInfo)
      let node: ValueEncoder.Node
      do {
        node = try ValueEncoder(options: options, codingPath: []).encodeNode(value, at: [])
      } catch {
        throw CodingProblem.encodingFailure(error, encoding: "\(type(of: value))")
      }
      guard case .map(let map) = node else {
        throw FirestoreError.invalidArgument(
          "Firestore.Encoder can only encode a struct, class or dictionary as a document, got \(type(of: value))")
      }
      return map.finished
    }
  }
}
