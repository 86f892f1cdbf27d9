import FirestoreWire

extension DocumentReference {
  /// Writes the document, replacing it entirely (or creating it).
  ///
  /// ```swift
  /// try await db.document("cities/LA").setData(["name": "Los Angeles", "state": "CA"])
  /// ```
  ///
  /// - Throws: `invalidArgument` for unsupported values, `FieldValue.delete()`, or a
  ///   document over 1 MiB, before anything is sent.
  @discardableResult
  public func setData(_ documentData: [String: any Sendable]) async throws -> WriteResult {
    try await commitOne(WriteBuilder.set(self, documentData, merge: .none))
  }

  /// Writes the document; with `merge: true`, only the given fields change (nested maps
  /// are merged field by field) and the rest of an existing document is kept.
  @discardableResult
  public func setData(_ documentData: [String: any Sendable], merge: Bool) async throws -> WriteResult {
    try await commitOne(WriteBuilder.set(self, documentData, merge: merge ? .all : .none))
  }

  /// Writes only the listed fields (dotted strings or ``FieldPath``s) from `documentData`;
  /// each must be present in the data. Other fields are left as they are.
  @discardableResult
  public func setData(_ documentData: [String: any Sendable], mergeFields: [any FieldPathConvertible]) async throws -> WriteResult {
    try await commitOne(WriteBuilder.set(self, documentData, mergeFields: mergeFields))
  }

  /// Creates the document; fails with `alreadyExists` if it exists.
  @discardableResult
  public func create(_ documentData: [String: any Sendable]) async throws -> WriteResult {
    try await commitOne(WriteBuilder.set(self, documentData, merge: .none, precondition: .exists(false)))
  }

  /// Updates fields of an existing document; keys are dotted paths (`"address.city"`).
  ///
  /// ```swift
  /// try await ref.updateData(["address.city": "Paris", "visits": FieldValue.increment(1)])
  /// ```
  ///
  /// - Parameters:
  ///   - fields: new values by dotted field path; `FieldValue.delete()` removes a field.
  ///   - precondition: defaults to "the document exists".
  /// - Throws: `notFound` when the document does not exist.
  @discardableResult
  public func updateData(_ fields: [String: any Sendable], precondition: DocumentPrecondition? = nil) async throws -> WriteResult {
    try await commitOne(WriteBuilder.update(self, WriteBuilder.fieldPaths(fields), precondition: precondition?.wire))
  }

  /// Updates fields of an existing document, addressed by ``FieldPath`` (for names with dots).
  @discardableResult
  public func updateData(_ fields: [FieldPath: any Sendable], precondition: DocumentPrecondition? = nil) async throws -> WriteResult {
    try await commitOne(WriteBuilder.update(self, fields, precondition: precondition?.wire))
  }

  /// Deletes the document. Deleting a missing document succeeds, unless a precondition says otherwise.
  /// Subcollections are not deleted.
  @discardableResult
  public func delete(precondition: DocumentPrecondition? = nil) async throws -> WriteResult {
    try await commitOne(WriteBuilder.delete(self, precondition: precondition?.wire))
  }

  private func commitOne(_ write: @autoclosure () throws(FirestoreError) -> Write) async throws -> WriteResult {
    let results = try await firestore.commit([try write()])
    guard let first = results.first else { throw FirestoreError(.internal, "commit returned no write result") }
    return first
  }
}

extension CollectionReference {
  /// Adds a document with a new random ID and returns its reference.
  ///
  /// ```swift
  /// let ref = try await db.collection("messages").addDocument(data: ["text": "hi"])
  /// ```
  @discardableResult
  public func addDocument(data: [String: any Sendable]) async throws -> DocumentReference {
    // A set, as the Apple SDK does: with a fresh random ID it is safe to retry.
    let ref = document()
    try await ref.setData(data)
    return ref
  }
}
