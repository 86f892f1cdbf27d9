import FirestoreWire

/// A document returned by a query: like ``DocumentSnapshot``, but it always exists.
public struct QueryDocumentSnapshot: Sendable, Equatable {
  /// The same document as a ``DocumentSnapshot``.
  public let snapshot: DocumentSnapshot
  let document: Document

  init(reference: DocumentReference, document: Document, readTime: Timestamp?, metadata: SnapshotMetadata = .server) {
    self.document = document
    snapshot = DocumentSnapshot(reference: reference, document: document, readTime: readTime, metadata: metadata)
  }

  /// Whether two snapshots show the same thing (see ``DocumentSnapshot/==(_:_:)``).
  public static func == (lhs: QueryDocumentSnapshot, rhs: QueryDocumentSnapshot) -> Bool {
    lhs.snapshot == rhs.snapshot
  }

  /// Where the document lives.
  public var reference: DocumentReference { snapshot.reference }
  /// The document's ID.
  public var documentID: String { snapshot.documentID }
  /// When the read happened.
  public var readTime: Timestamp? { snapshot.readTime }
  /// When the document was created.
  public var createTime: Timestamp? { document.createTime }
  /// When the document last changed.
  public var updateTime: Timestamp? { document.updateTime }
  /// Always `true`.
  public var exists: Bool { true }
  /// Whether the document came from the cache and has writes the server has not confirmed.
  public var metadata: SnapshotMetadata { snapshot.metadata }

  /// The fields as Swift values (see ``DocumentSnapshot/data()``); empty for an ID-only projection.
  public func data() -> [String: any Sendable] { snapshot.data() ?? [:] }

  /// The fields as Swift values, pending server timestamps shown as `behavior` says (see
  /// ``DocumentSnapshot/data(with:)``).
  public func data(with behavior: ServerTimestampBehavior) -> [String: any Sendable] { snapshot.data(with: behavior) ?? [:] }

  /// The fields in Firestore's own value type (pending server timestamps as `null`).
  public var fields: [String: FirestoreWire.Value] { snapshot.fields ?? [:] }

  /// The value at a dotted path or ``FieldPath``, or `nil` when absent.
  public func get(_ field: some FieldPathConvertible) -> (any Sendable)? { snapshot.get(field) }

  /// The value at a dotted path or ``FieldPath``, a pending server timestamp shown as
  /// `serverTimestampBehavior` says, or `nil` when absent.
  public func get(_ field: some FieldPathConvertible, serverTimestampBehavior: ServerTimestampBehavior) -> (any Sendable)? {
    snapshot.get(field, serverTimestampBehavior: serverTimestampBehavior)
  }

  /// The wire value at a dotted path or ``FieldPath``, or `nil` when absent.
  public func value(at field: some FieldPathConvertible) -> FirestoreWire.Value? { snapshot.value(at: field) }

  /// The value at a dotted path, or `nil` when absent.
  public subscript(field: String) -> (any Sendable)? { snapshot.get(field) }
}
