extension DocumentSnapshot {
  /// Decodes the document into a `T`, with `@DocumentID` properties set from ``reference``.
  ///
  /// ```swift
  /// let city = try await db.collection("cities").document("SF").getDocument().data(as: City.self)
  /// ```
  ///
  /// - Parameters:
  ///   - type: the type to decode.
  ///   - decoder: the decoder to use; see ``Firestore/Decoder`` for how values convert.
  /// - Throws: ``FirestoreError`` with code `notFound` when the document does not exist,
  ///   or `invalidArgument` (naming the field) when its data does not fit `T`.
  public func data<T: Decodable>(as type: T.Type, decoder: Firestore.Decoder = .init()) throws -> T {
    try data(as: type, with: .none, decoder: decoder)
  }

  /// Decodes the document into a `T`, reading each pending server timestamp as
  /// `serverTimestampBehavior` says (with ``ServerTimestampBehavior/none`` a pending
  /// `@ServerTimestamp` property decodes as `nil`).
  ///
  /// ```swift
  /// let message = try snapshot.data(as: Message.self, with: .estimate)
  /// ```
  public func data<T: Decodable>(
    as type: T.Type, with serverTimestampBehavior: ServerTimestampBehavior, decoder: Firestore.Decoder = .init()
  ) throws -> T {
    guard let data = nativeData(with: serverTimestampBehavior) else {
      throw FirestoreError(.notFound, "document \(reference.path) does not exist")
    }
    return try decoder.decode(T.self, from: data, in: reference)
  }
}
