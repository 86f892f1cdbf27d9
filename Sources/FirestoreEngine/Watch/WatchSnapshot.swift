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
  /// The names the server took out of the target one by one since the previous snapshot
  /// (`documentDelete`, `documentRemove`, or a `documentChange` that leaves the target).
  ///
  /// A document of the previous snapshot that is missing here and not named was left out
  /// of a set the server sent again whole (after RESET, or when the target was re-added):
  /// the server did not say it was deleted, only that it was not in that set.
  public var removedByServer: Set<String>

  /// Creates a snapshot.
  public init(
    documents: [Document], changes: [WatchChange], readTime: Timestamp, isInitial: Bool, removedByServer: Set<String> = []
  ) {
    self.documents = documents
    self.changes = changes
    self.readTime = readTime
    self.isInitial = isInitial
    self.removedByServer = removedByServer
  }
}
