import FirestoreWire

/// The Apple SDK's fire-and-forget and completion-handler forms of the document calls.
///
/// A write form queues the write at once (listeners show it) and returns; the completion
/// handler, if any, is called on ``FirestoreSettings/dispatchQueue`` once the server applied
/// the write (`nil`) or refused it — not while the server cannot be reached. Invalid data is
/// reported to the handler, or without one through ``FirestoreSettings/logHandler``.
extension DocumentReference {
  /// Writes the document without waiting for the server (see ``setData(_:completion:)``).
  public func setData(_ documentData: [String: Any]) {
    setData(documentData, completion: nil)
  }

  /// Writes the document, replacing it; `completion` hears the server's answer.
  ///
  /// ```swift
  /// db.document("cities/LA").setData(["name": "Los Angeles"]) { error in
  ///   if let error { print("not saved:", error) }
  /// }
  /// ```
  public func setData(_ documentData: [String: Any], completion: (((any Error)?) -> Void)?) {
    let data = UserData.sendable(documentData)
    firestore.submit(write { () throws(FirestoreError) in try WriteBuilder.set(self, data, merge: .none) }, completion: completion)
  }

  /// Writes the document, merging with `merge: true`, without waiting for the server.
  public func setData(_ documentData: [String: Any], merge: Bool) {
    setData(documentData, merge: merge, completion: nil)
  }

  /// Writes the document, merging with `merge: true`; `completion` hears the server's answer.
  public func setData(_ documentData: [String: Any], merge: Bool, completion: (((any Error)?) -> Void)?) {
    let data = UserData.sendable(documentData)
    firestore.submit(
      write { () throws(FirestoreError) in try WriteBuilder.set(self, data, merge: merge ? .all : .none) }, completion: completion)
  }

  /// Writes only the listed fields without waiting for the server.
  public func setData(_ documentData: [String: Any], mergeFields: [any FieldPathConvertible]) {
    setData(documentData, mergeFields: mergeFields, completion: nil)
  }

  /// Writes only the listed fields; `completion` hears the server's answer.
  public func setData(_ documentData: [String: Any], mergeFields: [any FieldPathConvertible], completion: (((any Error)?) -> Void)?) {
    let data = UserData.sendable(documentData)
    firestore.submit(
      write { () throws(FirestoreError) in try WriteBuilder.set(self, data, mergeFields: mergeFields) }, completion: completion)
  }

  /// Updates fields (dotted keys) without waiting for the server.
  public func updateData(_ fields: [String: Any]) {
    updateData(fields, completion: nil)
  }

  /// Updates fields (dotted keys) of an existing document; `completion` hears the server's
  /// answer (`notFound` when the document does not exist).
  public func updateData(_ fields: [String: Any], completion: (((any Error)?) -> Void)?) {
    let data = UserData.sendable(fields)
    firestore.submit(
      write { () throws(FirestoreError) in try WriteBuilder.update(self, WriteBuilder.fieldPaths(data), precondition: nil) },
      completion: completion)
  }

  /// Updates fields, addressed by ``FieldPath``, without waiting for the server.
  public func updateData(_ fields: [FieldPath: Any]) {
    updateData(fields, completion: nil)
  }

  /// Updates fields, addressed by ``FieldPath``; `completion` hears the server's answer.
  public func updateData(_ fields: [FieldPath: Any], completion: (((any Error)?) -> Void)?) {
    let data = UserData.sendable(fields)
    firestore.submit(write { () throws(FirestoreError) in try WriteBuilder.update(self, data, precondition: nil) }, completion: completion)
  }

  /// Updates fields, keyed by a mix of dotted `String`s and ``FieldPath``s as the Apple SDK
  /// allows, without waiting for the server.
  public func updateData(_ fields: [AnyHashable: Any]) {
    updateData(fields, completion: nil)
  }

  /// Updates fields, keyed by a mix of dotted `String`s and ``FieldPath``s; `completion`
  /// hears the server's answer.
  public func updateData(_ fields: [AnyHashable: Any], completion: (((any Error)?) -> Void)?) {
    let data = UserData.fieldPaths(fields)
    firestore.submit(
      write { () throws(FirestoreError) in try WriteBuilder.update(self, data.get(), precondition: nil) }, completion: completion)
  }

  /// Deletes the document without waiting for the server.
  public func delete() {
    delete(completion: nil)
  }

  /// Deletes the document; `completion` hears the server's answer.
  public func delete(completion: (((any Error)?) -> Void)?) {
    firestore.submit(write { () throws(FirestoreError) in try WriteBuilder.delete(self, precondition: nil) }, completion: completion)
  }

  /// Reads the document (see ``getDocument()``) and calls `completion` with the snapshot or
  /// the error.
  ///
  /// ```swift
  /// db.document("users/ada").getDocument { snapshot, error in
  ///   if let data = snapshot?.data() { show(data) }
  /// }
  /// ```
  public func getDocument(completion: @escaping (DocumentSnapshot?, (any Error)?) -> Void) {
    getDocument(source: .default, completion: completion)
  }

  /// Reads the document from `source` (see ``getDocument(source:)``) and calls `completion`
  /// with the snapshot or the error.
  public func getDocument(source: FirestoreSource, completion: @escaping (DocumentSnapshot?, (any Error)?) -> Void) {
    let reference = self
    if source == .cache {
      firestore.completeNow(completion) { try reference.cacheOnlySnapshot() }
      return
    }
    firestore.complete(completion) { try await reference.getDocument(source: source) }
  }

  /// Reads the document and decodes it, calling `completion` with the value or the error
  /// (`notFound` when it does not exist).
  public func getDocument<T: Decodable>(
    as type: T.Type, with serverTimestampBehavior: ServerTimestampBehavior = .none, decoder: Firestore.Decoder = Firestore.Decoder(),
    source: FirestoreSource = .default, completion: @escaping (Result<T, any Error>) -> Void
  ) {
    let reference = self
    let decode: (DocumentSnapshot?, (any Error)?) -> Void = { snapshot, error in
      completion(
        snapshot.map { snapshot in Result { try snapshot.data(as: type, with: serverTimestampBehavior, decoder: decoder) } }
          ?? .failure(error ?? FirestoreError(.unknown, "the read failed")))
    }
    firestore.complete(decode) { try await reference.getDocument(source: source) }
  }

  /// A write built now, its error kept for the completion handler.
  private func write(_ build: () throws(FirestoreError) -> Write) -> Result<[Write], FirestoreError> {
    do throws(FirestoreError) { return .success([try build()]) } catch { return .failure(error) }
  }
}
