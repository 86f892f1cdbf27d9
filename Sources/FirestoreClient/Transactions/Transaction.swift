import FirestorePlatform
import FirestoreWire

/// The handle a transaction body reads and writes through.
///
/// Reads see one consistent snapshot and lock what they read (read-write transactions);
/// writes are buffered and committed together when the body returns. All reads must come
/// before any write, as in every Firestore SDK.
public final class Transaction: Sendable {
  private struct State {
    var writes: [Write] = []
    var error: FirestoreError?
  }

  /// The database of the transaction.
  public let firestore: Firestore
  let id: String
  let readOnly: Bool
  private let state = Locked(State())

  init(firestore: Firestore, id: String, readOnly: Bool) {
    self.firestore = firestore
    self.id = id
    self.readOnly = readOnly
  }

  var bufferedWrites: [Write] { state.withLock { $0.writes } }
  var recordedError: FirestoreError? { state.withLock { $0.error } }

  private func checkCanRead(_ what: String) throws(FirestoreError) {
    let hasWrites = state.withLock { !$0.writes.isEmpty }
    if hasWrites {
      throw .invalidArgument("\(what): a transaction must do all its reads before its writes")
    }
  }

  /// Reads a document inside the transaction (a missing one has `exists == false`).
  public func getDocument(_ document: DocumentReference) async throws -> DocumentSnapshot {
    try checkCanRead("getDocument(\(document.path))")
    return try await firestore.batchGet([document], fieldMask: nil, consistency: .transaction(id))[0]
  }

  /// Reads several documents inside the transaction, in the order asked.
  public func getAll(_ documents: [DocumentReference]) async throws -> [DocumentSnapshot] {
    try checkCanRead("getAll")
    return try await firestore.batchGet(documents, fieldMask: nil, consistency: .transaction(id))
  }

  /// Runs a query inside the transaction.
  public func getDocuments(_ query: some QueryConvertible) async throws -> QuerySnapshot {
    try checkCanRead("getDocuments")
    return try await query.query.run(consistency: .transaction(id))
  }

  func add(_ ref: DocumentReference, _ build: () throws(FirestoreError) -> Write) -> Transaction {
    var result: Result<Write, FirestoreError>
    if readOnly {
      result = .failure(.invalidArgument("cannot write \(ref.path) in a read-only transaction"))
    } else if ref.firestore !== firestore {
      result = .failure(.invalidArgument("document \(ref.path) belongs to another Firestore instance than this transaction"))
    } else {
      do throws(FirestoreError) { result = .success(try build()) } catch { result = .failure(error) }
    }
    state.withLock { s in
      switch result {
      case .success(let w): s.writes.append(w)
      case .failure(let e): if s.error == nil { s.error = e }
      }
    }
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

  /// Deletes a document when the transaction commits.
  @discardableResult
  public func deleteDocument(_ document: DocumentReference) -> Transaction {
    add(document) { () throws(FirestoreError) in try WriteBuilder.delete(document, precondition: nil) }
  }
}
