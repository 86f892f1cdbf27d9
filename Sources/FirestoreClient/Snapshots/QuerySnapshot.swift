import FirestoreWire

/// The result of a query: its documents in query order.
///
/// A snapshot from a listener (``QueryConvertible/snapshots``) also says what changed since
/// the listener's previous snapshot in ``documentChanges``; in one from
/// ``QueryConvertible/getDocuments()``, as in a listener's first, every document was added.
public struct QuerySnapshot: Sendable, Equatable {
  /// The query that produced this snapshot.
  public let query: Query
  /// The documents, in the query's order.
  public let documents: [QueryDocumentSnapshot]
  /// When the read happened; present even when no document matched.
  public let readTime: Timestamp?
  /// What changed since the listener's previous snapshot, removals first (see
  /// ``DocumentChange``). In a listener's first snapshot, and in a snapshot from
  /// ``QueryConvertible/getDocuments()``, every document is ``DocumentChangeType/added``,
  /// in order, as in the Apple SDK.
  public var documentChanges: [DocumentChange] {
    switch changes {
    case .since(let changes, _): return changes
    case .allAdded: return allAdded
    }
  }
  /// Whether the snapshot came from the local cache and shows writes the server has not
  /// confirmed.
  public let metadata: SnapshotMetadata
  /// Whether these are a vector search's results (``query`` is then the search's base query).
  let isVectorSearch: Bool
  private let changes: Changes

  /// What a snapshot says changed.
  private enum Changes: Sendable {
    /// A listener's changes since its previous snapshot, and the same with the documents
    /// whose only change is their metadata.
    case since([DocumentChange], withMetadata: [DocumentChange])
    /// A one-time read's: every document added, made when asked for.
    case allAdded
  }

  /// A snapshot; `documentChanges` `nil` for a one-time read, whose documents were all added.
  init(
    query: Query, documents: [QueryDocumentSnapshot], readTime: Timestamp?, documentChanges: [DocumentChange]? = nil,
    metadata: SnapshotMetadata = .server, metadataChanges: [DocumentChange]? = nil, isVectorSearch: Bool = false
  ) {
    self.isVectorSearch = isVectorSearch
    self.query = query
    self.documents = documents
    self.readTime = readTime
    self.changes = documentChanges.map { .since($0, withMetadata: metadataChanges ?? $0) } ?? .allAdded
    self.metadata = metadata
  }

  /// The changes since the previous snapshot; with `includeMetadataChanges`, documents
  /// whose only change is their ``SnapshotMetadata`` (a pending write confirmed) are
  /// included as ``DocumentChangeType/modified``.
  public func documentChanges(includeMetadataChanges: Bool) -> [DocumentChange] {
    switch changes {
    case .since(let changes, let withMetadata): return includeMetadataChanges ? withMetadata : changes
    case .allAdded: return allAdded
    }
  }

  /// Every document, added at its index.
  private var allAdded: [DocumentChange] {
    documents.enumerated().map { DocumentChange(type: .added, document: $1, oldIndex: -1, newIndex: $0) }
  }

  /// Whether two snapshots show the same thing, as the Apple SDK compares them: equal
  /// queries, the same documents with the same changes, the same metadata.
  public static func == (lhs: QuerySnapshot, rhs: QuerySnapshot) -> Bool {
    lhs.query == rhs.query && lhs.metadata == rhs.metadata && lhs.documents == rhs.documents
      && lhs.documentChanges == rhs.documentChanges
  }

  /// The number of documents.
  public var count: Int { documents.count }
  /// Whether no document matched.
  public var isEmpty: Bool { documents.isEmpty }
}
