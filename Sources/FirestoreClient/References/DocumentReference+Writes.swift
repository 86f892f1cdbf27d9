import FirestoreWire

extension DocumentReference {
  /// Writes the document, replacing it entirely (or creating it), and returns when the
  /// server applied it.
  ///
  /// ```swift
  /// try await db.document("cities/LA").setData(["name": "Los Angeles", "state": "CA"])
  /// ```
  ///
  /// The write is queued: listeners show it at once, and while the server cannot be
  /// reached it waits (with a persistent cache, across restarts) and is sent when it can.
  /// To write without waiting, call the same method outside an `async` context, or pass a
  /// completion handler, as in the Apple SDK (see <doc:LocalCacheAndOffline>).
  ///
  /// - Throws: `invalidArgument` for unsupported values, `FieldValue.delete()`, or a
  ///   document over 1 MiB, before anything is queued; the server's error when it refuses
  ///   the write (which is then rolled back locally).
  @discardableResult
  public func setData(_ documentData: [String: Any]) async throws -> WriteResult {
    try await commitOne(WriteBuilder.set(self, UserData.sendable(documentData), merge: .none))
  }

  /// Writes the document; with `merge: true`, only the given fields change (nested maps
  /// are merged field by field) and the rest of an existing document is kept.
  @discardableResult
  public func setData(_ documentData: [String: Any], merge: Bool) async throws -> WriteResult {
    try await commitOne(WriteBuilder.set(self, UserData.sendable(documentData), merge: merge ? .all : .none))
  }

  /// Writes only the listed fields (dotted strings or ``FieldPath``s) from `documentData`;
  /// each must be present in the data. Other fields are left as they are.
  @discardableResult
  public func setData(_ documentData: [String: Any], mergeFields: [any FieldPathConvertible]) async throws -> WriteResult {
    try await commitOne(WriteBuilder.set(self, UserData.sendable(documentData), mergeFields: mergeFields))
  }

  /// Creates the document; fails with `alreadyExists` if it exists.
  @discardableResult
  public func create(_ documentData: [String: Any]) async throws -> WriteResult {
    try await commitOne(WriteBuilder.set(self, UserData.sendable(documentData), merge: .none, precondition: .exists(false)))
  }

  /// Updates fields of an existing document; keys are dotted paths (`"address.city"`).
  ///
  /// ```swift
  /// try await ref.updateData(["address.city": "Paris", "visits": FieldValue.increment(Int64(1))])
  /// ```
  ///
  /// - Parameter fields: new values by dotted field path; `FieldValue.delete()` removes a field.
  /// - Throws: `notFound` when the document does not exist.
  @discardableResult
  public func updateData(_ fields: [String: Any]) async throws -> WriteResult {
    try await commitOne(WriteBuilder.update(self, WriteBuilder.fieldPaths(UserData.sendable(fields)), precondition: nil))
  }

  /// Updates fields of an existing document, if `precondition` holds (`nil`: the document
  /// exists).
  @discardableResult
  public func updateData(_ fields: [String: Any], precondition: DocumentPrecondition?) async throws -> WriteResult {
    try await commitOne(WriteBuilder.update(self, WriteBuilder.fieldPaths(UserData.sendable(fields)), precondition: precondition?.wire))
  }

  /// Updates fields of an existing document, addressed by ``FieldPath`` (for names with dots).
  @discardableResult
  public func updateData(_ fields: [FieldPath: Any]) async throws -> WriteResult {
    try await commitOne(WriteBuilder.update(self, UserData.sendable(fields), precondition: nil))
  }

  /// Updates fields, addressed by ``FieldPath``, of an existing document, if `precondition`
  /// holds (`nil`: the document exists).
  @discardableResult
  public func updateData(_ fields: [FieldPath: Any], precondition: DocumentPrecondition?) async throws -> WriteResult {
    try await commitOne(WriteBuilder.update(self, UserData.sendable(fields), precondition: precondition?.wire))
  }

  /// Updates fields of an existing document, the keys a mix of dotted `String`s and
  /// ``FieldPath``s, as the Apple SDK's `[AnyHashable: Any]` allows.
  @discardableResult
  public func updateData(_ fields: [AnyHashable: Any]) async throws -> WriteResult {
    try await commitOne(WriteBuilder.update(self, UserData.fieldPaths(fields).get(), precondition: nil))
  }

  /// Deletes the document. Deleting a missing document succeeds. Subcollections are not deleted.
  @discardableResult
  public func delete() async throws -> WriteResult {
    try await commitOne(WriteBuilder.delete(self, precondition: nil))
  }

  /// Deletes the document if `precondition` holds (`nil`: always).
  @discardableResult
  public func delete(precondition: DocumentPrecondition?) async throws -> WriteResult {
    try await commitOne(WriteBuilder.delete(self, precondition: precondition?.wire))
  }

  private func commitOne(_ write: @autoclosure () throws(FirestoreError) -> Write) async throws -> WriteResult {
    let results = try await firestore.commit([try write()])
    guard let first = results.first else { throw FirestoreError(.internal, "commit returned no write result") }
    return first
  }
}

extension CollectionReference {
  /// Adds a document with a new random ID and returns its reference once the server
  /// applied the write (see ``DocumentReference/setData(_:)->_``).
  ///
  /// ```swift
  /// let ref = try await db.collection("messages").addDocument(data: ["text": "hi"])
  /// ```
  @discardableResult
  public func addDocument(data: [String: Any]) async throws -> DocumentReference {
    // A set, as the Apple SDK does: with a fresh random ID it is safe to retry.
    let ref = document()
    try await ref.setData(data)
    return ref
  }
}
