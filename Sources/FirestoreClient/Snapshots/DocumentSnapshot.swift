import FirestoreWire

/// A document as read at one moment: its data, or the fact that it did not exist.
///
/// A missing document is not an error: ``exists`` is `false` and ``data()`` is `nil`.
///
/// ```swift
/// let snapshot = try await db.document("users/ada").getDocument()
/// if snapshot.exists, let name = snapshot.get("name") as? String { print(name) }
/// ```
public struct DocumentSnapshot: Sendable, Equatable {
  /// Where the document lives.
  public let reference: DocumentReference
  /// The stored document, or `nil` when it does not exist.
  let document: Document?
  /// When the read happened, if the server said.
  public let readTime: Timestamp?
  /// Whether the snapshot came from the local cache and has writes the server has not confirmed.
  public let metadata: SnapshotMetadata

  /// Whether two snapshots show the same thing, as the Apple SDK compares them: the same
  /// document, in the same state, with the same metadata; when they were read is no part
  /// of it.
  public static func == (lhs: DocumentSnapshot, rhs: DocumentSnapshot) -> Bool {
    lhs.reference == rhs.reference && lhs.document == rhs.document && lhs.metadata == rhs.metadata
  }

  init(reference: DocumentReference, document: Document?, readTime: Timestamp?, metadata: SnapshotMetadata = .server) {
    self.reference = reference
    self.document = document
    self.readTime = readTime
    self.metadata = metadata
  }

  /// Whether the document exists.
  public var exists: Bool { document != nil }

  /// The document's ID.
  public var documentID: String { reference.documentID }

  /// When the document was created; `nil` when it does not exist.
  public var createTime: Timestamp? { document?.createTime }

  /// When the document last changed; `nil` when it does not exist.
  public var updateTime: Timestamp? { document?.updateTime }

  /// The fields as Swift values, or `nil` when the document does not exist.
  ///
  /// As in the Apple SDK, integers, doubles and booleans come back as `NSNumber`, so every
  /// cast ported code makes works: `as? Int`, `as? Int64`, `as? Double`, `as? NSNumber`, and
  /// `as? Bool` for a boolean. Timestamps come back as ``Timestamp``, bytes as `Data`, null as
  /// `NSNull`, references as ``DocumentReference``, maps as `[String: any Sendable]` and
  /// arrays as `[any Sendable]`. A server timestamp this client wrote that the server has
  /// not set yet is `NSNull` (see ``data(with:)``).
  ///
  /// ```swift
  /// let count = snapshot.data()?["count"] as? Int64 ?? 0
  /// ```
  public func data() -> [String: any Sendable]? { data(with: .none) }

  /// The fields as Swift values, with each pending server timestamp (see
  /// ``FieldValue/serverTimestamp()``) shown as `behavior` says; `nil` when the document
  /// does not exist.
  ///
  /// ```swift
  /// let data = snapshot.data(with: .estimate)  // pending timestamps: the local write time
  /// ```
  public func data(with behavior: ServerTimestampBehavior) -> [String: any Sendable]? {
    fields(with: behavior).map { UserDataWriter(firestore: reference.firestore).convert($0) }
  }

  /// The fields with booleans and numbers as Swift's `Bool`, `Int` and `Double`, for the
  /// Codable decoder, which must tell `true` from `1`.
  func nativeData(with behavior: ServerTimestampBehavior) -> [String: any Sendable]? {
    fields(with: behavior).map { UserDataWriter(firestore: reference.firestore, numbers: .native).convert($0) }
  }

  /// The fields in Firestore's own value type, exact to the wire, or `nil` when missing.
  /// A pending server timestamp is `null`.
  public var fields: [String: FirestoreWire.Value]? { fields(with: .none) }

  /// The fields with pending server timestamps resolved; no copy when there are none.
  private func fields(with behavior: ServerTimestampBehavior) -> [String: FirestoreWire.Value]? {
    guard let document else { return nil }
    guard metadata.hasPendingWrites, ServerTimestampSentinel.contains(document.fields) else { return document.fields }
    return ServerTimestampSentinel.resolve(document.fields, behavior)
  }

  /// The value at a dotted path or ``FieldPath``, or `nil` when absent (or the path is
  /// invalid); numbers and booleans as `NSNumber`, as ``data()`` returns them.
  ///
  /// ```swift
  /// let visits = snapshot.get("stats.visits") as? Int64 ?? 0
  /// ```
  public func get(_ field: some FieldPathConvertible) -> (any Sendable)? {
    get(field, serverTimestampBehavior: .none)
  }

  /// The value at a dotted path or ``FieldPath``, a pending server timestamp shown as
  /// `serverTimestampBehavior` says, or `nil` when absent (or the path is invalid).
  public func get(_ field: some FieldPathConvertible, serverTimestampBehavior: ServerTimestampBehavior) -> (any Sendable)? {
    guard let value = value(at: field, serverTimestampBehavior: serverTimestampBehavior) else { return nil }
    return UserDataWriter(firestore: reference.firestore).convert(value)
  }

  /// The wire value at a dotted path or ``FieldPath``, or `nil` when absent (a pending
  /// server timestamp is `null`).
  public func value(at field: some FieldPathConvertible) -> FirestoreWire.Value? {
    value(at: field, serverTimestampBehavior: .none)
  }

  private func value(at field: some FieldPathConvertible, serverTimestampBehavior: ServerTimestampBehavior) -> FirestoreWire.Value? {
    guard let document, let path = try? field.fieldPath() else { return nil }
    if path.isDocumentID { return .reference(document.name) }
    var current: FirestoreWire.Value = .map(document.fields)
    for segment in path.segments {
      // A pending server timestamp is a leaf, whatever its placeholder looks like.
      guard current.pendingServerTimestamp == nil, case .map(let m) = current, let next = m[segment] else { return nil }
      current = next
    }
    return metadata.hasPendingWrites ? ServerTimestampSentinel.resolve(current, serverTimestampBehavior) : current
  }

  /// The value at a dotted path or ``FieldPath``, or `nil` when absent.
  public subscript(field: String) -> (any Sendable)? { self.get(field) }
}
