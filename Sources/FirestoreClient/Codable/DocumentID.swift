/// A type a ``DocumentID`` property can hold: `String` (the document's ID) or
/// ``DocumentReference`` (the whole reference).
public protocol DocumentIDWrappable {
  /// The value that stands for the document at `documentReference`.
  static func wrap(_ documentReference: DocumentReference) throws -> Self
}

extension String: DocumentIDWrappable {
  /// The document's ID, the last segment of its path.
  public static func wrap(_ documentReference: DocumentReference) throws -> String {
    documentReference.documentID
  }
}

extension DocumentReference: DocumentIDWrappable {
  /// The reference itself.
  public static func wrap(_ documentReference: DocumentReference) throws -> DocumentReference {
    documentReference
  }
}

/// Marks ``DocumentID`` values, which ``Firestore/Encoder`` leaves out of the document.
protocol DocumentIDMarker {}

/// A property that holds the ID (or reference) of the document it was decoded from.
///
/// ``Firestore/Decoder`` fills it from the reference passed to
/// ``Firestore/Decoder/decode(_:from:in:)`` (``DocumentSnapshot/data(as:decoder:)`` passes
/// the snapshot's), ignoring any field of the same name in the data; with no reference it
/// is `nil`. ``Firestore/Encoder`` never writes it, so it does not become a field.
///
/// Other coders (say `JSONEncoder` for a local cache) store it like an optional value;
/// a ``DocumentReference`` cannot be stored that way and fails to encode.
///
/// ```swift
/// struct City: Codable {
///   @DocumentID var id: String?
///   var name: String
/// }
///
/// let city = try snapshot.data(as: City.self)
/// print(city.id ?? "")  // "SF", from snapshot.reference
/// ```
@propertyWrapper
public struct DocumentID<Value: DocumentIDWrappable & Codable & Sendable>: Codable, Sendable {
  /// The document's ID or reference; `nil` for a value that was not read from a document.
  public var wrappedValue: Value?

  /// Creates the property with a value (usually `nil`; decoding sets it).
  public init(wrappedValue: Value?) {
    self.wrappedValue = wrappedValue
  }

  /// Takes the value from ``Firestore/Decoder``'s document reference; other decoders read
  /// a stored optional value.
  public init(from decoder: any Decoder) throws {
    if let decoder = decoder as? ValueDecoder {
      wrappedValue = try decoder.options.reference.map { try Value.wrap($0) }
      return
    }
    wrappedValue = try decoder.decodeOptional(Value.self)
  }

  /// Encodes the value, or null, for coders other than ``Firestore/Encoder`` (which skips
  /// the property before this is called).
  public func encode(to encoder: any Encoder) throws {
    try encoder.encodeOptional(wrappedValue)
  }
}

extension DocumentID: DocumentIDMarker {}

/// Equal when the wrapped values are equal.
extension DocumentID: Equatable where Value: Equatable {}

/// Hashes the wrapped value.
extension DocumentID: Hashable where Value: Hashable {}

extension KeyedDecodingContainer {
  /// Decodes a ``DocumentID`` even when the data has no such field (the usual case).
  ///
  /// Synthesized `init(from:)` calls this overload for `@DocumentID` properties. With
  /// ``Firestore/Decoder`` the value comes from the document reference; with other decoders
  /// a missing field is `nil`.
  public func decode<Value>(_ type: DocumentID<Value>.Type, forKey key: Key) throws -> DocumentID<Value> {
    if contains(key) { return try DocumentID(from: superDecoder(forKey: key)) }
    // A container exposes its decoder only through superDecoder; Firestore's gives one
    // for a missing key too, and other decoders' may throw, which just means "not ours".
    if let decoder = try? superDecoder(forKey: key), decoder is ValueDecoder {
      return try DocumentID(from: decoder)
    }
    return DocumentID(wrappedValue: nil)
  }
}
