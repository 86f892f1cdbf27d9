import FirestoreWire
import Foundation

/// A transaction the mock has handed out, with the documents it has read (and so locked).
struct MockTransaction: Sendable {
  let id: String
  /// `projects/{p}/databases/{d}`, the database the transaction belongs to.
  let database: String
  let readOnly: Bool
  /// For read-only transactions: the time every read sees (the start when not given).
  let readTime: Timestamp?
  /// Paths read so far; other writers must wait for the transaction to end.
  var locks: Set<String> = []
  /// When the transaction was last used (on the store's ``MockClock``), for expiring
  /// abandoned ones.
  var lastUsed: Duration
  /// The transaction this one waits for at commit, for deadlock detection.
  var waitingOn: Set<String> = []
}
