/// A sentinel only means something in a Firestore write, so only ``Firestore/Encoder`` can
/// encode one; it keeps the sentinel as it is for `setData` and `updateData` to apply.
extension FieldValue: Encodable {
  /// Writes the sentinel with ``Firestore/Encoder``.
  ///
  /// - Throws: ``FirestoreError`` (`invalidArgument`) with any other encoder.
  public func encode(to encoder: any Encoder) throws {
    guard encoder is ValueEncoder else {
      throw FirestoreError.invalidArgument(
        "\(methodName) at \(CodingPath.field(encoder.codingPath)) can only be encoded by Firestore.Encoder")
    }
    // The encoder keeps a FieldValue as it is before calling encode(to:), so this does not recurse.
    var container = encoder.singleValueContainer()
    try container.encode(self)
  }
}
