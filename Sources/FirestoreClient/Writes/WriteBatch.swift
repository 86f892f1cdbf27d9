import FirestorePlatform
import FirestoreWire

/// Writes to several documents, committed atomically: all or none.
///
/// Add writes, then ``commit()->_``. A write with invalid data is recorded and reported by
/// `commit()`, which then sends nothing. A batch can be committed once. The request text of
/// a large batch is written on other threads while writes are still being added, so that
/// `commit()` has little left to do before it sends.
///
/// ```swift
/// let batch = db.batch()
/// batch.setData(["name": "Ada"], forDocument: db.document("users/ada"))
/// batch.updateData(["count": FieldValue.increment(1)], forDocument: db.document("stats/users"))
/// batch.deleteDocument(db.document("users/old"))
/// try await batch.commit()
/// ```
public final class WriteBatch: Sendable {
  /// The database the batch writes to.
  public var firestore: Firestore { record.firestore }
  private let record: WriteRecord

  init(firestore: Firestore) { record = WriteRecord(firestore: firestore, writesAhead: true) }

  func add(_ document: DocumentReference, _ build: () throws(FirestoreError) -> Write) -> WriteBatch {
    record.add(document, owner: "batch", build)
    return self
  }

  /// Replaces (or creates) a document.
  @discardableResult
  public func setData(_ data: [String: Any], forDocument document: DocumentReference) -> WriteBatch {
    add(document) { () throws(FirestoreError) in try WriteBuilder.set(document, UserData.sendable(data), merge: .none) }
  }

  /// Writes a document, merging into an existing one when `merge` is true.
  @discardableResult
  public func setData(_ data: [String: Any], forDocument document: DocumentReference, merge: Bool) -> WriteBatch {
    add(document) { () throws(FirestoreError) in try WriteBuilder.set(document, UserData.sendable(data), merge: merge ? .all : .none) }
  }

  /// Writes only the listed fields of `data` into a document.
  @discardableResult
  public func setData(_ data: [String: Any], forDocument document: DocumentReference, mergeFields: [any FieldPathConvertible])
    -> WriteBatch
  {
    add(document) { () throws(FirestoreError) in try WriteBuilder.set(document, UserData.sendable(data), mergeFields: mergeFields) }
  }

  /// Creates a document; the commit fails with `alreadyExists` if it exists.
  @discardableResult
  public func create(_ data: [String: Any], forDocument document: DocumentReference) -> WriteBatch {
    add(document) { () throws(FirestoreError) in
      try WriteBuilder.set(document, UserData.sendable(data), merge: .none, precondition: .exists(false))
    }
  }

  /// Updates fields (dotted keys) of an existing document; the commit fails with `notFound` if it is missing.
  @discardableResult
  public func updateData(
    _ fields: [String: Any], forDocument document: DocumentReference, precondition: DocumentPrecondition? = nil
  )
    -> WriteBatch
  {
    add(document) { () throws(FirestoreError) in
      try WriteBuilder.update(document, WriteBuilder.fieldPaths(UserData.sendable(fields)), precondition: precondition?.wire)
    }
  }

  /// Updates fields, addressed by ``FieldPath``, of an existing document.
  @discardableResult
  public func updateData(
    _ fields: [FieldPath: Any], forDocument document: DocumentReference, precondition: DocumentPrecondition? = nil
  )
    -> WriteBatch
  {
    add(document) { () throws(FirestoreError) in
      try WriteBuilder.update(document, UserData.sendable(fields), precondition: precondition?.wire)
    }
  }

  /// Updates fields, keyed by a mix of dotted `String`s and ``FieldPath``s as the Apple SDK
  /// allows, of an existing document.
  @discardableResult
  public func updateData(_ fields: [AnyHashable: Any], forDocument document: DocumentReference) -> WriteBatch {
    let data = UserData.fieldPaths(fields)
    return add(document) { () throws(FirestoreError) in try WriteBuilder.update(document, data.get(), precondition: nil) }
  }

  /// Deletes a document.
  @discardableResult
  public func deleteDocument(_ document: DocumentReference, precondition: DocumentPrecondition? = nil) -> WriteBatch {
    add(document) { () throws(FirestoreError) in try WriteBuilder.delete(document, precondition: precondition?.wire) }
  }

  /// The number of writes added so far.
  public var count: Int { record.writes.count }

  /// Commits every write atomically; returns one result per write, in order.
  ///
  /// - Throws: the first recorded invalid write (sending nothing), `invalidArgument` when
  ///   the batch was already committed or exceeds 10 MiB, or the server's error (then
  ///   nothing was written).
  @discardableResult
  public func commit() async throws -> [WriteResult] {
    let (writes, text) = try await record.takeWritten(alreadyTaken: Self.alreadyCommitted).get()
    if writes.isEmpty { return [] }
    return try await firestore.commit(writes, encodedWrites: text)
  }

  private static var alreadyCommitted: FirestoreError { .invalidArgument("this WriteBatch was already committed; create a new one") }

  /// The writes to commit, once; the first recorded error, or a second commit's error.
  func takeWrites() -> Result<[Write], FirestoreError> {
    record.take(alreadyTaken: Self.alreadyCommitted)
  }
}

extension Firestore {
  /// A new, empty write batch.
  public func batch() -> WriteBatch { WriteBatch(firestore: self) }
}
