import FirestoreWire

extension DocumentReference {
  /// Writes an `Encodable` value as the document, replacing it, without waiting for the
  /// server: the write is queued and shown to listeners at once, as in the Apple SDK;
  /// `completion`, if given, hears the server's answer. To wait for the server, await
  /// ``Firestore/waitForPendingWrites()`` or write the encoded data with
  /// `try await setData(Firestore.Encoder().encode(value))`.
  ///
  /// ```swift
  /// struct City: Codable { var name: String; var population: Int }
  /// try db.document("cities/LA").setData(from: City(name: "Los Angeles", population: 3_900_000))
  /// ```
  ///
  /// `@DocumentID` properties are not written; a `nil` `@ServerTimestamp` becomes the
  /// server's commit time.
  ///
  /// - Throws: `invalidArgument` naming the field when the value cannot be encoded (nothing
  ///   is queued).
  public func setData<T: Encodable>(
    from value: T, encoder: Firestore.Encoder = Firestore.Encoder(), completion: (((any Error)?) -> Void)? = nil
  ) throws {
    setData(try encoder.encode(value), completion: completion)
  }

  /// Writes an `Encodable` value as the document, merging with `merge: true` (see
  /// ``setData(from:encoder:completion:)``).
  public func setData<T: Encodable>(
    from value: T, merge: Bool, encoder: Firestore.Encoder = Firestore.Encoder(), completion: (((any Error)?) -> Void)? = nil
  ) throws {
    setData(try encoder.encode(value), merge: merge, completion: completion)
  }

  /// Writes only the listed fields of an `Encodable` value, each a dotted `String` or a
  /// ``FieldPath`` as in the Apple SDK; the document's other fields are kept (see
  /// ``setData(from:encoder:completion:)``).
  ///
  /// ```swift
  /// try db.document("cities/LA").setData(from: city, mergeFields: ["population"])
  /// ```
  public func setData<T: Encodable>(
    from value: T, mergeFields: [Any], encoder: Firestore.Encoder = Firestore.Encoder(), completion: (((any Error)?) -> Void)? = nil
  ) throws {
    setData(try encoder.encode(value), mergeFields: UntypedFieldPaths.read(mergeFields), completion: completion)
  }

  /// Creates the document from an `Encodable` value and returns when the server applied
  /// it; fails with `alreadyExists` if it exists.
  @discardableResult
  public func create<T: Encodable>(from value: T, encoder: Firestore.Encoder = Firestore.Encoder()) async throws -> WriteResult {
    try await create(try encoder.encode(value))
  }

  /// Reads the document from `source` and decodes it, pending server timestamps read as
  /// `serverTimestampBehavior` says.
  ///
  /// ```swift
  /// let city = try await db.document("cities/LA").getDocument(as: City.self)
  /// ```
  ///
  /// - Throws: `notFound` when the document does not exist; `invalidArgument` naming the
  ///   field and the type found when the data does not fit `T`.
  public func getDocument<T: Decodable>(
    as type: T.Type, with serverTimestampBehavior: ServerTimestampBehavior = .none, decoder: Firestore.Decoder = Firestore.Decoder(),
    source: FirestoreSource = .default
  ) async throws -> T {
    try await getDocument(source: source).data(as: type, with: serverTimestampBehavior, decoder: decoder)
  }
}

extension WriteBatch {
  /// Writes an `Encodable` value as a document (merging with `merge: true`).
  ///
  /// - Throws: `invalidArgument` naming the field when the value cannot be encoded, as the
  ///   Apple SDK throws (nothing is added). Other invalid writes are recorded and thrown by
  ///   ``commit()->_``.
  @discardableResult
  public func setData<T: Encodable>(
    from value: T, forDocument document: DocumentReference, merge: Bool = false, encoder: Firestore.Encoder = Firestore.Encoder()
  ) throws -> WriteBatch {
    let data = try encoder.firestoreEncode(value)
    return add(document) { () throws(FirestoreError) in
      try WriteBuilder.set(document, data, merge: merge ? .all : .none)
    }
  }

  /// Writes only the listed fields (dotted `String`s or ``FieldPath``s) of an `Encodable`
  /// value into a document; its other fields are kept. Errors are reported as in
  /// ``setData(from:forDocument:merge:encoder:)``.
  @discardableResult
  public func setData<T: Encodable>(
    from value: T, forDocument document: DocumentReference, mergeFields: [Any], encoder: Firestore.Encoder = Firestore.Encoder()
  ) throws -> WriteBatch {
    let data = try encoder.firestoreEncode(value)
    let fields = UntypedFieldPaths.read(mergeFields)
    return add(document) { () throws(FirestoreError) in
      try WriteBuilder.set(document, data, mergeFields: fields)
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
  /// - Throws: `invalidArgument` naming the field when the value cannot be encoded, as the
  ///   Apple SDK throws (nothing is added). Other invalid writes are recorded and fail the
  ///   transaction at commit.
  @discardableResult
  public func setData<T: Encodable>(
    from value: T, forDocument document: DocumentReference, merge: Bool = false, encoder: Firestore.Encoder = Firestore.Encoder()
  ) throws -> Transaction {
    let data = try encoder.firestoreEncode(value)
    return add(document) { () throws(FirestoreError) in
      try WriteBuilder.set(document, data, merge: merge ? .all : .none)
    }
  }

  /// Writes only the listed fields (dotted `String`s or ``FieldPath``s) of an `Encodable`
  /// value into a document when the transaction commits; its other fields are kept. Errors
  /// are reported as in ``setData(from:forDocument:merge:encoder:)``.
  @discardableResult
  public func setData<T: Encodable>(
    from value: T, forDocument document: DocumentReference, mergeFields: [Any], encoder: Firestore.Encoder = Firestore.Encoder()
  ) throws -> Transaction {
    let data = try encoder.firestoreEncode(value)
    let fields = UntypedFieldPaths.read(mergeFields)
    return add(document) { () throws(FirestoreError) in
      try WriteBuilder.set(document, data, mergeFields: fields)
    }
  }
}

extension Firestore.Encoder {
  /// `encode(_:)` with its error typed, for builders that record errors.
  func firestoreEncode<T: Encodable>(_ value: T) throws(FirestoreError) -> [String: any Sendable] {
    do {
      return try encode(value)
    } catch {
      throw CodingProblem.encodingFailure(error, encoding: "\(T.self)")
    }
  }
}
