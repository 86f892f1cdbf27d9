import FirestorePlatform
import FirestoreWire

/// The handle a transaction body reads and writes through.
///
/// Reads see one consistent snapshot and lock what they read (read-write transactions);
/// writes are buffered and committed together when the body returns. All reads must come
/// before any write, as in every Firestore SDK.
public final class Transaction: Sendable {
  /// The database of the transaction.
  public var firestore: Firestore { record.firestore }
  let id: String
  let readOnly: Bool
  private let record: WriteRecord

  init(firestore: Firestore, id: String, readOnly: Bool) {
    record = WriteRecord(firestore: firestore)
    self.id = id
    self.readOnly = readOnly
  }

  var bufferedWrites: [Write] { record.writes }
  var recordedError: FirestoreError? { record.error }

  /// Refuses a read after a write; the transaction then fails at commit too, as in every
  /// Firestore SDK, even when the body catches this error.
  private func checkCanRead(_ what: String) throws(FirestoreError) {
    if !record.writes.isEmpty {
      let error = FirestoreError.invalidArgument("\(what): a transaction must do all its reads before its writes")
      record.fail(error)
      throw error
    }
  }

  /// Reads a document inside the transaction (a missing one has `exists == false`).
  public func getDocument(_ document: DocumentReference) async throws -> DocumentSnapshot {
    try checkCanRead("getDocument(\(document.path))")
    return try await firestore.batchGet([document], fieldMask: nil, consistency: .transaction(id))[0]
  }

  /// Reads a document inside the transaction, blocking the calling thread until it is read:
  /// the Apple SDK's form, for the synchronous block of
  /// ``Firestore/runTransaction(_:completion:)``, which runs on a dispatch queue. In `async`
  /// code the `async` form is chosen (write `try await`); never block a thread of the Swift
  /// concurrency pool with this one.
  public func getDocument(_ document: DocumentReference) throws -> DocumentSnapshot {
    try BlockingWait.run { try await self.getDocument(document) }
  }

  /// Reads several documents inside the transaction, in the order asked.
  ///
  /// - Parameters:
  ///   - documents: the documents to read; a missing one has `exists == false`.
  ///   - fieldMask: the fields to return (all when `nil`), as in
  ///     ``Firestore/getAll(_:fieldMask:readTime:)``.
  public func getAll(_ documents: [DocumentReference], fieldMask: [any FieldPathConvertible]? = nil) async throws -> [DocumentSnapshot] {
    try checkCanRead("getAll")
    return try await firestore.batchGet(documents, fieldMask: fieldMask, consistency: .transaction(id))
  }

  /// Runs a query inside the transaction.
  public func getDocuments(_ query: some QueryConvertible) async throws -> QuerySnapshot {
    try checkCanRead("getDocuments")
    return try await query.query.run(consistency: .transaction(id))
  }

  /// Computes a query's aggregations inside the transaction, over what it reads (as the
  /// server SDKs' `transaction.get(aggregateQuery)`); in a read-write transaction the
  /// documents aggregated stay locked until it ends.
  ///
  /// ```swift
  /// try await db.runTransaction { transaction in
  ///   let open = try await transaction.getAggregation(db.collection("tickets").whereField("open", isEqualTo: true).count)
  ///   transaction.setData(["open": open.count], forDocument: db.document("stats/tickets"))
  /// }
  /// ```
  public func getAggregation(_ query: AggregateQuery) async throws -> AggregateQuerySnapshot {
    try checkCanRead("getAggregation")
    return try await query.run(consistency: .transaction(id))
  }

  func add(_ document: DocumentReference, _ build: () throws(FirestoreError) -> Write) -> Transaction {
    let refusal: FirestoreError? = readOnly ? .invalidArgument("cannot write \(document.path) in a read-only transaction") : nil
    record.add(document, owner: "transaction", refusal: refusal, build)
    return self
  }

  /// Replaces (or creates) a document when the transaction commits.
  @discardableResult
  public func setData(_ data: [String: Any], forDocument document: DocumentReference) -> Transaction {
    add(document) { () throws(FirestoreError) in try WriteBuilder.set(document, UserData.sendable(data), merge: .none) }
  }

  /// Writes a document, merging into an existing one when `merge` is true.
  @discardableResult
  public func setData(_ data: [String: Any], forDocument document: DocumentReference, merge: Bool) -> Transaction {
    add(document) { () throws(FirestoreError) in try WriteBuilder.set(document, UserData.sendable(data), merge: merge ? .all : .none) }
  }

  /// Writes only the listed fields (dotted strings or ``FieldPath``s) of `data` into a
  /// document when the transaction commits; other fields are left as they are.
  @discardableResult
  public func setData(_ data: [String: Any], forDocument document: DocumentReference, mergeFields: [any FieldPathConvertible])
    -> Transaction
  {
    add(document) { () throws(FirestoreError) in try WriteBuilder.set(document, UserData.sendable(data), mergeFields: mergeFields) }
  }

  /// Creates a document; the commit fails with `alreadyExists` if it exists.
  @discardableResult
  public func create(_ data: [String: Any], forDocument document: DocumentReference) -> Transaction {
    add(document) { () throws(FirestoreError) in
      try WriteBuilder.set(document, UserData.sendable(data), merge: .none, precondition: .exists(false))
    }
  }

  /// Updates fields (dotted keys) of an existing document.
  @discardableResult
  public func updateData(_ fields: [String: Any], forDocument document: DocumentReference) -> Transaction {
    add(document) { () throws(FirestoreError) in
      try WriteBuilder.update(document, WriteBuilder.fieldPaths(UserData.sendable(fields)), precondition: nil)
    }
  }

  /// Updates fields, addressed by ``FieldPath``, of an existing document.
  @discardableResult
  public func updateData(_ fields: [FieldPath: Any], forDocument document: DocumentReference) -> Transaction {
    add(document) { () throws(FirestoreError) in try WriteBuilder.update(document, UserData.sendable(fields), precondition: nil) }
  }

  /// Updates fields, keyed by a mix of dotted `String`s and ``FieldPath``s as the Apple SDK
  /// allows, of an existing document.
  @discardableResult
  public func updateData(_ fields: [AnyHashable: Any], forDocument document: DocumentReference) -> Transaction {
    let data = UserData.fieldPaths(fields)
    return add(document) { () throws(FirestoreError) in try WriteBuilder.update(document, data.get(), precondition: nil) }
  }

  /// Deletes a document when the transaction commits.
  @discardableResult
  public func deleteDocument(_ document: DocumentReference) -> Transaction {
    add(document) { () throws(FirestoreError) in try WriteBuilder.delete(document, precondition: nil) }
  }
}
