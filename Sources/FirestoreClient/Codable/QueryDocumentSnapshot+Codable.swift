extension QueryDocumentSnapshot {
  /// Decodes the document into a `T`, with `@DocumentID` properties set from ``reference``.
  ///
  /// ```swift
  /// let cities = try await db.collection("cities").getDocuments().documents.map { try $0.data(as: City.self) }
  /// ```
  ///
  /// - Parameters:
  ///   - type: the type to decode.
  ///   - decoder: the decoder to use; see ``Firestore/Decoder`` for how values convert.
  /// - Throws: ``FirestoreError`` (`invalidArgument`, naming the field) when the data does
  ///   not fit `T`.
  public func data<T: Decodable>(as type: T.Type, decoder: Firestore.Decoder = .init()) throws -> T {
    try decoder.decode(T.self, from: snapshot.nativeData(with: .none) ?? [:], in: reference)
  }
}
