import FirestoreWire

/// The result of a query: its documents in query order.
public struct QuerySnapshot: Sendable {
  /// The query that produced this snapshot.
  public let query: Query
  /// The documents, in the query's order.
  public let documents: [QueryDocumentSnapshot]
  /// When the read happened; present even when no document matched.
  public let readTime: Timestamp?

  init(query: Query, documents: [QueryDocumentSnapshot], readTime: Timestamp?) {
    self.query = query
    self.documents = documents
    self.readTime = readTime
  }

  /// The number of documents.
  public var count: Int { documents.count }
  /// Whether no document matched.
  public var isEmpty: Bool { documents.isEmpty }
}
