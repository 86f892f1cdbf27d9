/// Where a snapshot's data came from.
///
/// A snapshot read from the server has both properties `false`. One read from the local
/// cache (``FirestoreSource/cache``, a ``FirestoreSource/default`` read that fell back, or a
/// listener's first snapshot before the server answered) has ``isFromCache`` set; one that
/// shows writes of this client the server has not confirmed yet has ``hasPendingWrites`` set.
///
/// ```swift
/// for try await snapshot in db.collection("favorites").snapshots(includeMetadataChanges: true) {
///   print(snapshot.metadata.hasPendingWrites ? "saving…" : "saved")
/// }
/// ```
public struct SnapshotMetadata: Sendable, Hashable {
  /// Whether the snapshot was served from the local cache rather than the server.
  public let isFromCache: Bool
  /// Whether the snapshot contains local writes the server has not acknowledged yet (for a
  /// listener: not yet seen on the listen stream).
  public let hasPendingWrites: Bool

  /// Creates metadata.
  public init(isFromCache: Bool = false, hasPendingWrites: Bool = false) {
    self.isFromCache = isFromCache
    self.hasPendingWrites = hasPendingWrites
  }

  /// Metadata of a snapshot read from the server with no pending writes.
  static let server = SnapshotMetadata()
}
