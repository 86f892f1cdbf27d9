/// Where a snapshot's data came from.
///
/// This client has no local cache and no latency compensation yet, so both properties are
/// always `false`: every snapshot reflects the server. They exist so that code written for
/// the Firebase Apple SDK compiles unchanged.
///
/// ```swift
/// if !snapshot.metadata.isFromCache { print("fresh from the server") }
/// ```
public struct SnapshotMetadata: Sendable, Hashable {
  /// Whether the snapshot was served from the local cache rather than the server; always
  /// `false` for now.
  public let isFromCache: Bool
  /// Whether the snapshot contains local writes the server has not acknowledged yet;
  /// always `false` for now.
  public let hasPendingWrites: Bool

  /// Creates metadata.
  public init(isFromCache: Bool = false, hasPendingWrites: Bool = false) {
    self.isFromCache = isFromCache
    self.hasPendingWrites = hasPendingWrites
  }

  /// Metadata of a snapshot read from the server with no pending writes.
  static let server = SnapshotMetadata()
}
