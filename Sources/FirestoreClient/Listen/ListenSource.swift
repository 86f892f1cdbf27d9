/// Where a snapshot listener gets its data. The names follow the Apple SDK.
///
/// ```swift
/// let options = SnapshotListenOptions().withSource(.cache)
/// let registration = db.collection("favorites").addSnapshotListener(options: options) { snapshot, error in
///   // Only what the cache holds, and this client's writes; nothing is sent to the server.
/// }
/// ```
public enum ListenSource: Sendable, Hashable {
  /// The cache at once (when it has something), then the server, and every change after:
  /// the default.
  case `default`
  /// The local cache only: the listener never asks the server, and hears of changes to the
  /// cache (this client's writes, and documents that other reads and listeners bring in).
  /// Every snapshot has ``SnapshotMetadata/isFromCache`` set.
  case cache
}
