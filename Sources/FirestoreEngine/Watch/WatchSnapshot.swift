import FirestoreWire

/// A consistent view of one listen target, as delivered to its listener.
public struct WatchSnapshot: Sendable, Equatable {
  /// The documents, in the query's order and cut to its limit; for a documents target the
  /// documents that exist, by name.
  public var documents: [Document]
  /// What changed since the previous snapshot of this target, Firebase style: removals
  /// first, then additions, then modifications, each group in query order.
  public var changes: [WatchChange]
  /// The read time of the consistent point the snapshot was taken at.
  public var readTime: Timestamp
  /// Whether this is the target's first snapshot (every document is then `.added`).
  public var isInitial: Bool

  /// Creates a snapshot.
  public init(documents: [Document], changes: [WatchChange], readTime: Timestamp, isInitial: Bool) {
    self.documents = documents
    self.changes = changes
    self.readTime = readTime
    self.isInitial = isInitial
  }
}
