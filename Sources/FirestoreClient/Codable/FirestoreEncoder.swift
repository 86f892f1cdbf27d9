import FirestorePlatform
import FirestoreWire
import Foundation

extension Firestore {
  /// Encodes `Encodable` values into document data for `setData` and `updateData`.
  ///
  /// The result is the `[String: any Sendable]` tree the write methods accept:
  /// - structs, classes and `[String: …]` dictionaries become `[String: any Sendable]`,
  ///   and arrays (and other unkeyed values) `[any Sendable]`;
  /// - `Data`, ``Timestamp``, ``GeoPoint``, ``VectorValue``, ``DocumentReference`` and
  ///   ``FieldValue`` are kept as they are, so Firestore stores them natively, and a `Date`
  ///   becomes its ``Timestamp``, as in the Apple SDK;
  /// - integers of any width become `Int`; an unsigned value above `Int64.max` is an error;
  ///   `Float` becomes `Double`; a `URL` becomes its absolute string; enums with raw
  ///   values are stored as their raw values;
  /// - dates, data, infinite and NaN numbers, and property names are written as the
  ///   strategies say (``dateEncodingStrategy`` and the rest, named as in the Apple SDK);
  /// - `nil` optionals are left out, or written as `NSNull()` when ``encodesNilAsNull``
  ///   is set or the property is marked ``ExplicitNull`` (a `nil` inside an array is always
  ///   `NSNull()`);
  /// - `@DocumentID` properties are never written; a `nil` `@ServerTimestamp` becomes
  ///   `FieldValue.serverTimestamp()`.
  ///
  /// Only a value that encodes as keyed data (a struct, class or dictionary) can be a
  /// document. Every error is a ``FirestoreError`` with code `invalidArgument` whose message
  /// names the field, e.g. `cannot encode Account: field "balance" has integer
  /// 18446744073709551615, which does not fit in a 64-bit signed integer`; the Swift
  /// `EncodingError` behind it (or the encoded type's own error) is its
  /// ``FirestoreError/underlyingError``.
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
  ///
  /// // As in the Apple SDK, the encoder is a class configured through its properties.
  /// let encoder = Firestore.Encoder()
  /// encoder.keyEncodingStrategy = .convertToSnakeCase
  /// encoder.dateEncodingStrategy = .iso8601
  /// ```
  public final class Encoder: Sendable {
    /// What the properties hold, under a lock, so one encoder may be shared between tasks.
    private let state = Locked(ValueEncoder.Options())

    /// One setting, read or written under the lock.
    private subscript<Setting: Sendable>(_ setting: WritableKeyPath<ValueEncoder.Options, Setting>) -> Setting {
      get { state.withLock { $0[keyPath: setting] } }
      set { state.withLock { $0[keyPath: setting] = newValue } }
    }

    /// How `Date` values are written; ``DateEncodingStrategy/timestamp`` by default.
    public var dateEncodingStrategy: DateEncodingStrategy {
      get { self[\.dateStrategy] }
      set { self[\.dateStrategy] = newValue }
    }

    /// How `Data` values are written; ``DataEncodingStrategy/blob`` (Firestore bytes) by default.
    public var dataEncodingStrategy: DataEncodingStrategy {
      get { self[\.dataStrategy] }
      set { self[\.dataStrategy] = newValue }
    }

    /// What happens to infinite and NaN numbers; ``NonConformingFloatEncodingStrategy/throw``
    /// by default, as in the Apple SDK.
    public var nonConformingFloatEncodingStrategy: NonConformingFloatEncodingStrategy {
      get { self[\.floatStrategy] }
      set { self[\.floatStrategy] = newValue }
    }

    /// How property names become field names; ``KeyEncodingStrategy/useDefaultKeys`` by default.
    public var keyEncodingStrategy: KeyEncodingStrategy {
      get { self[\.keyStrategy] }
      set { self[\.keyStrategy] = newValue }
    }

    /// Whether a `nil` optional property is written as `NSNull()` (a null field) instead of
    /// being left out. `false` by default, so a merging write keeps what is stored; mark
    /// single properties with ``ExplicitNull`` instead to write only those as null.
    public var encodesNilAsNull: Bool {
      get { self[\.encodesNilAsNull] }
      set { self[\.encodesNilAsNull] = newValue }
    }

    /// Values that the encoded types' `encode(to:)` can read from `encoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] {
      get { self[\.userInfo] }
      set { self[\.userInfo] = newValue }
    }

    /// Creates an encoder with default settings.
    public init() {}

    /// Encodes `value` as the fields of a document.
    ///
    /// - Parameter value: a struct, class or `[String: …]` dictionary.
    /// - Returns: the document data, for `setData` or `updateData`.
    /// - Throws: ``FirestoreError`` (`invalidArgument`) when `value` does not encode as
    ///   keyed data, when an integer does not fit in 64 signed bits, when a number is not
    ///   finite under ``NonConformingFloatEncodingStrategy/throw``, or when the value's own
    ///   `encode(to:)` fails (for example a ``DocumentReference`` given to another encoder
    ///   inside it); the message names the field path.
    public func encode<T: Encodable>(_ value: T) throws -> [String: any Sendable] {
      let options = state.withLock { $0 }
      let node: ValueEncoder.Node
      do {
        node = try ValueEncoder(options: options, codingPath: []).encodeNode(value, at: [])
      } catch {
        throw CodingProblem.encodingFailure(error, encoding: "\(type(of: value))")
      }
      guard case .map(let map) = node else {
        let text = "Firestore.Encoder can only encode a struct, class or dictionary as a document, got \(type(of: value))"
        throw FirestoreError(
          .invalidArgument, text,
          underlyingError: EncodingError.invalidValue(value, EncodingError.Context(codingPath: [], debugDescription: text)))
      }
      return map.finished
    }
  }
}
