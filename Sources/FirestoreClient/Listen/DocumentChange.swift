/// How a document changed between two snapshots of a listened query.
public enum DocumentChangeType: Sendable, Hashable {
  /// The document entered the query's results.
  case added
  /// The document stayed in the results and its contents changed.
  case modified
  /// The document left the results: it was deleted, stopped matching, or was pushed out by
  /// the limit.
  case removed
}

/// One document's change between a listened query's previous snapshot and this one.
///
/// Apply a snapshot's ``QuerySnapshot/documentChanges`` in order to the previous
/// `documents` array to obtain the new one: first ``DocumentChangeType/removed`` at
/// ``oldIndex``, then ``DocumentChangeType/added`` and ``DocumentChangeType/modified``
/// (moved) to ``newIndex``, each index relative to the array after the earlier changes.
///
/// ```swift
/// for try await snapshot in db.collection("cities").snapshots {
///   for change in snapshot.documentChanges {
///     switch change.type {
///     case .added: print("new", change.document.documentID, "at", change.newIndex)
///     case .modified: print("changed", change.document.documentID)
///     case .removed: print("gone", change.document.documentID, "from", change.oldIndex)
///     }
///   }
/// }
/// ```
///
/// Where the Firebase Apple SDK uses `NSNotFound` for a missing index, this type uses `-1`:
/// ``oldIndex`` of an addition and ``newIndex`` of a removal.
public struct DocumentChange: Sendable, Equatable {
  /// The kind of change.
  public let type: DocumentChangeType
  /// The document after the change; for a removal, its last version in the results.
  public let document: QueryDocumentSnapshot
  /// The index in the previous results (after the earlier changes were applied), or `-1`
  /// for an addition.
  public let oldIndex: Int
  /// The index in the new results (after this change is applied), or `-1` for a removal.
  public let newIndex: Int
}
