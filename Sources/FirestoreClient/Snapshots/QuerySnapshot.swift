import FirestoreWire

/// The result of a query: its documents in query order.
///
/// A snapshot from a listener (``QueryConvertible/snapshots``) also says what changed since
/// the listener's previous snapshot in ``documentChanges``; one from
/// ``QueryConvertible/getDocuments()`` has no changes.
public struct QuerySnapshot: Sendable {
  /// The query that produced this snapshot.
  public let query: Query
  /// The documents, in the query's order.
  public let documents: [QueryDocumentSnapshot]
  /// When the read happened; present even when no document matched.
  public let readTime: Timestamp?
  /// What changed since the listener's previous snapshot, removals first (see
  /// ``DocumentChange``). In a listener's first snapshot every document is
  /// ``DocumentChangeType/added``; a snapshot from ``QueryConvertible/getDocuments()`` has none.
  public let documentChanges: [DocumentChange]
  /// Whether the snapshot came from the local cache and shows writes the server has not
  /// confirmed.
  public let metadata: SnapshotMetadata
  /// ``documentChanges`` plus documents whose only change is their metadata.
  let metadataChanges: [DocumentChange]
  /// Whether these are a vector search's results (``query`` is then the search's base query).
  let isVectorSearch: Bool

  init(
    query: Query, documents: [QueryDocumentSnapshot], readTime: Timestamp?, documentChanges: [DocumentChange] = [],
    metadata: SnapshotMetadata = .server, metadataChanges: [DocumentChange]? = nil, isVectorSearch: Bool = false
  ) {
    self.isVectorSearch = isVectorSearch
    self.query = query
    self.documents = documents
    self.readTime = readTime
    self.documentChanges = documentChanges
    self.metadata = metadata
    self.metadataChanges = metadataChanges ?? documentChanges
  }

  /// The changes since the previous snapshot; with `includeMetadataChanges`, documents
  /// whose only change is their ``SnapshotMetadata`` (a pending write confirmed) are
  /// included as ``DocumentChangeType/modified``.
  public func documentChanges(includeMetadataChanges: Bool) -> [DocumentChange] {
    includeMetadataChanges ? metadataChanges : documentChanges
  }

  /// The number of documents.
  public var count: Int { documents.count }
  /// Whether no document matched.
  public var isEmpty: Bool { documents.isEmpty }
}
