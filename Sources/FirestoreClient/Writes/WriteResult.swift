import FirestoreWire

/// The outcome of one write.
public struct WriteResult: Sendable, Equatable {
  /// When the document was last updated by this write; for a delete (or a write that
  /// changed nothing) the commit time.
  public let updateTime: Timestamp
  /// When the commit that carried the write was applied.
  public let commitTime: Timestamp
  /// One value per server transform of the write, in order (the new counter value of an
  /// increment, the timestamp of `serverTimestamp()`; null for array transforms).
  public let transformResults: [FirestoreWire.Value]
}
