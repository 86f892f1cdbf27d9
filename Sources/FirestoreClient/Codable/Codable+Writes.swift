import FirestoreWire

extension DocumentReference {
  /// Writes an `Encodable` value as the document (replacing it, or merging with `merge: true`).
  ///
  /// ```swift
  /// struct City: Codable { var name: String; var population: Int }
  /// try await db.document("cities/LA").setData(from: City(name: "Los Angeles", population: 3_900_000))
  /// ```
  ///
  /// `@DocumentID` properties are not written; a `nil` `@ServerTimestamp` becomes the
  /// server's commit time.
  @discardableResult
  public func setData<T: Encodable>(from value: T, merge: Bool = false, encoder: Firestore.Encoder = Firestore.Encoder()) async throws
    -> WriteResult
  {
    try await setData(try encoder.encode(value), merge: merge)
  }

  /// Writes only the listed fields of an `Encodable` value.
  @discardableResult
  public func setData<T: Encodable>(
    from value: T, mergeFields: [any FieldPathConvertible], encoder: Firestore.Encoder = Firestore.Encoder()
  ) async throws -> WriteResult {
    try await setData(try encoder.encode(value), mergeFields: mergeFields)
  }

  /// Creates the document from an `Encodable` value; fails with `alreadyExists` if it exists.
  @discardableResult
  public func create<T: Encodable>(from value: T, encoder: Firestore.Encoder = Firestore.Encoder()) async throws -> WriteResult {
    try await create(try encoder.encode(value))
  }

  /// Reads the document and decodes it.
  ///
  /// ```swift
  /// let city = try await db.document("cities/LA").getDocument(as: City.self)
  /// ```
  ///
  /// - Throws: `notFound` when the document does not exist; `invalidArgument` naming the
  ///   field and the type found when the data does not fit `T`.
  public func getDocument<T: Decodable>(as type: T.Type, decoder: Firestore.Decoder = Firestore.Decoder()) async throws -> T {
    try await getDocument().data(as: type, decoder: decoder)
  }
}

extension CollectionReference {
  /// Adds a document with a new random ID from an `Encodable` value and returns its reference.
  @discardableResult
  public func addDocument<T: Encodable>(from value: T, encoder: Firestore.Encoder = Firestore.Encoder()) async throws -> DocumentReference {
    try await addDocument(data: try encoder.encode(value))
  }
}

extension WriteBatch {
  /// Writes an `Encodable` value as a document (merging with `merge: true`).
  ///
  /// An encoding error is recorded and thrown by ``commit()``, like any invalid write.
  @discardableResult
  public func setData<T: Encodable>(
    from value: T, forDocument document: DocumentReference, merge: Bool = false, encoder: Firestore.Encoder = Firestore.Encoder()
  ) -> WriteBatch {
    add(document) { () throws(FirestoreError) in
      try WriteBuilder.set(document, try encoder.firestoreEncode(value), merge: merge ? .all : .none)
    }
  }
}

extension BulkWriter {
  /// Queues a write of an `Encodable` value as a document (merging with `merge: true`).
  ///
  /// - Throws: ``FirestoreError`` `invalidArgument` when the value cannot be encoded as a
  ///   document (nothing is queued), `failedPrecondition` after ``close()``.
  @discardableResult
  public func setData<T: Encodable>(
    from value: T, forDocument document: DocumentReference, merge: Bool = false, encoder: Firestore.Encoder = Firestore.Encoder()
  ) throws(FirestoreError) -> BulkWriteOperation {
    try enqueue(document, .set) { () throws(FirestoreError) in
      try WriteBuilder.set(document, try encoder.firestoreEncode(value), merge: merge ? .all : .none)
    }
  }
}

extension Transaction {
  /// Writes an `Encodable` value as a document when the transaction commits.
  ///
  /// An encoding error is recorded and fails the transaction at commit, like any invalid write.
  @discardableResult
  public func setData<T: Encodable>(
    from value: T, forDocument document: DocumentReference, merge: Bool = false, encoder: Firestore.Encoder = Firestore.Encoder()
  ) -> Transaction {
    add(document) { () throws(FirestoreError) in
      try WriteBuilder.set(document, try encoder.firestoreEncode(value), merge: merge ? .all : .none)
    }
  }
}

extension Firestore.Encoder {
  /// `encode(_:)` with its error typed, for builders that record errors.
  func firestoreEncode<T: Encodable>(_ value: T) throws(FirestoreError) -> [String: any Sendable] {
    do {
      return try encode(value)
    } catch let error as FirestoreError {
      throw error
    } catch {
      throw .invalidArgument("cannot encode \(T.self): \(error)")
    }
  }
}
