/// How a snapshot listener behaves: where it reads and whether metadata-only changes
/// are delivered. The names follow the Apple SDK; each `with…` method returns a copy.
///
/// ```swift
/// let options = SnapshotListenOptions().withSource(.cache).withIncludeMetadataChanges(true)
/// for try await snapshot in db.collection("cities").snapshots(options: options) { … }
/// ```
public struct SnapshotListenOptions: Sendable, Hashable {
  /// Where the listener reads; ``ListenSource/default`` unless set.
  public let source: ListenSource
  /// Whether snapshots that differ only in ``SnapshotMetadata`` are delivered; `false` unless set.
  public let includeMetadataChanges: Bool

  /// The defaults: the server (with the cache first), no metadata-only snapshots.
  public init() {
    self.init(source: .default, includeMetadataChanges: false)
  }

  init(source: ListenSource, includeMetadataChanges: Bool) {
    self.source = source
    self.includeMetadataChanges = includeMetadataChanges
  }

  /// These options with ``includeMetadataChanges`` set as given.
  public func withIncludeMetadataChanges(_ includeMetadataChanges: Bool) -> SnapshotListenOptions {
    SnapshotListenOptions(source: source, includeMetadataChanges: includeMetadataChanges)
  }

  /// These options reading from `source`.
  public func withSource(_ source: ListenSource) -> SnapshotListenOptions {
    SnapshotListenOptions(source: source, includeMetadataChanges: includeMetadataChanges)
  }
}
