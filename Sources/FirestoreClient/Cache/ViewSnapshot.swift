import FirestoreEngine
import FirestoreWire

/// One state of a listener's local view, as the ``LocalStore`` delivers it: the server's
/// results with this client's pending writes applied, and where they came from.
struct ViewSnapshot: Sendable {
  /// The documents in the view's order (placeholders for pending server timestamps included).
  var documents: [Document]
  /// Changes since the previous delivered snapshot, documents' contents only.
  var changes: [WatchChange]
  /// Changes since the previous delivered snapshot, including documents whose only change
  /// is their pending-write state.
  var changesWithMetadata: [WatchChange]
  /// The read time of the server data shown, `nil` while it all comes from the cache.
  var readTime: Timestamp?
  /// Whether no server snapshot has been received yet.
  var isFromCache: Bool
  /// Names of the documents shown with writes not yet confirmed by the listen.
  var pendingNames: Set<String>

  /// The metadata of the whole snapshot.
  var metadata: SnapshotMetadata {
    SnapshotMetadata(isFromCache: isFromCache, hasPendingWrites: !pendingNames.isEmpty)
  }

  /// The metadata of one of its documents.
  func metadata(of name: String) -> SnapshotMetadata {
    SnapshotMetadata(isFromCache: isFromCache, hasPendingWrites: pendingNames.contains(name))
  }
}
