import FirestorePlatform
import FirestoreWire
import Foundation

extension Firestore {
  /// Decodes document data, as ``DocumentSnapshot/data()`` returns it, into `Decodable` types.
  ///
  /// - Integers decode into any integer type when they fit, and into `Double`/`Float`.
  /// - Doubles decode into `Double`/`Float`, and into an integer type only when the number
  ///   is whole and fits (`3.0` → `3`; `2.5` is an error).
  /// - Timestamps decode into ``Timestamp`` or `Date`; bytes into `Data`; geo points,
  ///   vectors, references, strings and booleans into ``GeoPoint``, ``VectorValue``,
  ///   ``DocumentReference``, `String` and `Bool`; strings also into `URL`; maps into
  ///   structs, classes or dictionaries; arrays into arrays.
  /// - A null or missing field decodes as `nil` into an optional property.
  /// - Dates, data, numbers given as strings, and field names are read as the strategies
  ///   say (``dateDecodingStrategy`` and the rest, named as in the Apple SDK).
  /// - `@DocumentID` properties are set from the `reference` given to
  ///   ``decode(_:from:in:)``, whatever the data holds.
  ///
  /// Every error is a ``FirestoreError`` with code `invalidArgument` whose message names the
  /// type, the field path (array positions as `tags[2]`) and what was found:
  /// `cannot decode City: field "population" expected Int but found String "many"`, or
  /// `cannot decode City: field "name" is missing`. The Swift `DecodingError` behind it (or
  /// the decoded type's own error) is its ``FirestoreError/underlyingError``.
  ///
  /// ```swift
  /// let snapshot = try await db.collection("cities").document("SF").getDocument()
  /// if let data = snapshot.data() {
  ///   let city = try Firestore.Decoder().decode(City.self, from: data, in: snapshot.reference)
  /// }
  /// ```
  public final class Decoder: Sendable {
    /// What the properties hold, under a lock, so one decoder may be shared between tasks.
    private let state = Locked(ValueDecoder.Options())

    /// One setting, read or written under the lock.
    private subscript<Setting: Sendable>(_ setting: WritableKeyPath<ValueDecoder.Options, Setting>) -> Setting {
      get { state.withLock { $0[keyPath: setting] } }
      set { state.withLock { $0[keyPath: setting] = newValue } }
    }

    /// How `Date` values are read; ``DateDecodingStrategy/timestamp`` by default.
    public var dateDecodingStrategy: DateDecodingStrategy {
      get { self[\.dateStrategy] }
      set { self[\.dateStrategy] = newValue }
    }

    /// How `Data` values are read; ``DataDecodingStrategy/blob`` (Firestore bytes) by default.
    public var dataDecodingStrategy: DataDecodingStrategy {
      get { self[\.dataStrategy] }
      set { self[\.dataStrategy] = newValue }
    }

    /// Whether strings stand for infinite and NaN numbers; ``NonConformingFloatDecodingStrategy/throw``
    /// (they do not) by default.
    public var nonConformingFloatDecodingStrategy: NonConformingFloatDecodingStrategy {
      get { self[\.floatStrategy] }
      set { self[\.floatStrategy] = newValue }
    }

    /// How field names map to property names; ``KeyDecodingStrategy/useDefaultKeys`` by default.
    public var keyDecodingStrategy: KeyDecodingStrategy {
      get { self[\.keyStrategy] }
      set { self[\.keyStrategy] = newValue }
    }

    /// Values that the decoded types' `init(from:)` can read from `decoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] {
      get { self[\.userInfo] }
      set { self[\.userInfo] = newValue }
    }

    /// Creates a decoder with default settings.
    public init() {}

    /// Decodes a `T` from a document's fields.
    ///
    /// - Parameters:
    ///   - type: the type to decode, usually a struct or class.
    ///   - data: the fields, as ``DocumentSnapshot/data()`` returns them (a `[String: Any]`
    ///     built by hand works too), or a single value for a type that is not a document.
    ///   - reference: the document the data came from; fills `@DocumentID` properties,
    ///     which are `nil` when it is not given.
    /// - Throws: ``FirestoreError`` (`invalidArgument`) naming the type, field and the value
    ///   found, when the data does not fit `T` or `T`'s own `init(from:)` fails.
    public func decode<T: Decodable>(_ type: T.Type, from data: Any, in reference: DocumentReference? = nil) throws -> T {
      var options = state.withLock { $0 }
      options.reference = reference
      // Decoding reads the value and lets go of it before returning; nothing is shared.
      let value = UserData.sendable(data)
      let decoder = ValueDecoder(value: value, codingPath: [], options: options)
      do {
        return try decoder.decode(T.self, from: value, at: [])
      } catch {
        throw CodingProblem.decodingFailure(error, decoding: "\(T.self)")
      }
    }
  }
}
