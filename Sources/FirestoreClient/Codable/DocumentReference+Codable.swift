/// A reference is stored natively by Firestore, so only ``Firestore/Encoder`` and
/// ``Firestore/Decoder`` can code one: other coders have no representation for it, and
/// could not rebuild it without the ``Firestore`` instance it belongs to.
extension DocumentReference: Codable {
  /// Reads a reference with ``Firestore/Decoder``.
  ///
  /// - Throws: ``FirestoreDecodingError/decodingIsNotSupported(_:)`` with any other
  ///   decoder; `DecodingError.typeMismatch` when the field holds something else.
  public init(from decoder: any Decoder) throws {
    guard let decoder = decoder as? ValueDecoder else {
      throw FirestoreDecodingError.decodingIsNotSupported(
        "DocumentReference at \(CodingPath.field(decoder.codingPath)) can only be decoded by Firestore.Decoder")
    }
    // Decoding a DocumentReference type is answered before init(from:), so this does not recurse.
    self = try decoder.decode(DocumentReference.self, from: decoder.value, at: decoder.codingPath)
  }

  /// Writes the reference with ``Firestore/Encoder``, which stores it as it is.
  ///
  /// - Throws: ``FirestoreEncodingError/encodingIsNotSupported(_:)`` with any other encoder.
  public func encode(to encoder: any Encoder) throws {
    try ValueEncoder.encodeKept(self, named: "DocumentReference \(path)", to: encoder)
  }
}
