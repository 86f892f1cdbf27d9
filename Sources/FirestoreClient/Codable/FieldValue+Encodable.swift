/// A sentinel only means something in a Firestore write, so only ``Firestore/Encoder`` can
/// encode one; it keeps the sentinel as it is for `setData` and `updateData` to apply.
extension FieldValue: Encodable {
  /// Writes the sentinel with ``Firestore/Encoder``.
  ///
  /// - Throws: ``FirestoreEncodingError/encodingIsNotSupported(_:)`` with any other encoder.
  public func encode(to encoder: any Encoder) throws {
    try ValueEncoder.encodeKept(self, named: methodName, to: encoder)
  }
}
