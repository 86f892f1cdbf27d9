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
  /// - `@DocumentID` properties are set from the `reference` given to
  ///   ``decode(_:from:in:)``, whatever the data holds.
  ///
  /// Every error is a ``FirestoreError`` with code `invalidArgument` whose message names the
  /// type, the field path (array positions as `tags[2]`) and what was found:
  /// `cannot decode City: field "population" expected Int but found String "many"`, or
  /// `cannot decode City: field "name" is missing`.
  ///
  /// ```swift
  /// let snapshot = try await db.collection("cities").document("SF").getDocument()
  /// if let data = snapshot.data() {
  ///   let city = try Firestore.Decoder().decode(City.self, from: data, in: snapshot.reference)
  /// }
  /// ```
  public struct Decoder: Sendable {
    /// Values that the decoded types' `init(from:)` can read from `decoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// Creates a decoder with default settings.
    public init() {}

    /// Decodes a `T` from a document's fields.
    ///
    /// - Parameters:
    ///   - type: the type to decode, usually a struct or class.
    ///   - data: the fields, as ``DocumentSnapshot/data()`` returns them.
    ///   - reference: the document the data came from; fills `@DocumentID` properties,
    ///     which are `nil` when it is not given.
    /// - Throws: ``FirestoreError`` (`invalidArgument`) naming the type, field and the value
    ///   found, when the data does not fit `T` or `T`'s own `init(from:)` fails.
    public func decode<T: Decodable>(
      _ type: T.Type, from data: [String: any Sendable], in reference: DocumentReference? = nil
    ) throws -> T {
      let options = ValueDecoder.Options(reference: reference, userInfo: userInfo)
      let decoder = ValueDecoder(value: data, codingPath: [], options: options)
      do {
        return try decoder.decode(T.self, from: data, at: [])
      } catch {
        throw CodingProblem.decodingFailure(error, decoding: "\(T.self)")
      }
    }
  }
}
