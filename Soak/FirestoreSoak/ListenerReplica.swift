import FirestoreClient
import FirestorePlatform
import FirestoreWire

/// What the soak's listeners believe, rebuilt only from what they were told, and every
/// inconsistency seen on the way.
final class ListenerReplica: Sendable {
  private struct State {
    /// Document ID → `v`, from the query listener's changes alone.
    var documents: [String: Int] = [:]
    var querySnapshots = 0
    /// The last `v` the document listener saw, `-1` for a missing document.
    var lastWatched: Int?
    var documentSnapshots = 0
    var violations: [String] = []
    var failure: String?

    mutating func record(_ violation: String) {
      if violations.count < 20 { violations.append(violation) }
    }
  }

  private let state = Locked(State())

  /// Applies a query snapshot's changes, checking each against what came before.
  func apply(_ snapshot: QuerySnapshot) {
    state.withLock { state in
      state.querySnapshots += 1
      for change in snapshot.documentChanges {
        let id = change.document.documentID
        let value = change.document.get("v") as? Int ?? -1
        switch change.type {
        case .added:
          if state.documents[id] != nil { state.record("added \(id) twice") }
          state.documents[id] = value
        case .modified:
          if let old = state.documents[id], old >= value { state.record("\(id) went from v=\(old) to v=\(value)") }
          if state.documents[id] == nil { state.record("modified unknown \(id)") }
          state.documents[id] = value
        case .removed:
          if state.documents.removeValue(forKey: id) == nil { state.record("removed unknown \(id)") }
        }
      }
      let listed = Dictionary(uniqueKeysWithValues: snapshot.documents.map { ($0.documentID, $0.get("v") as? Int ?? -1) })
      if listed != state.documents {
        state.record("a snapshot lists \(listed.count) documents, its changes add up to \(state.documents.count)")
        state.documents = listed
      }
    }
  }

  /// Records a document snapshot: every write to the watched document has a larger `v`,
  /// so a value that does not grow is a stale or repeated snapshot.
  func apply(_ snapshot: DocumentSnapshot) {
    state.withLock { state in
      state.documentSnapshots += 1
      let value = snapshot.exists ? snapshot.get("v") as? Int ?? -2 : -1
      if let last = state.lastWatched, value != -1, last != -1, value <= last {
        state.record("the document listener saw v=\(value) after v=\(last)")
      }
      state.lastWatched = value
    }
  }

  /// Records the error that ended a listener.
  func fail(_ what: String) { state.withLock { $0.failure = what } }

  /// The query listener's documents.
  var documents: [String: Int] { state.withLock { $0.documents } }
  /// Snapshots delivered to the query listener and to the document listener.
  var snapshotCounts: (query: Int, document: Int) { state.withLock { ($0.querySnapshots, $0.documentSnapshots) } }
  /// The first inconsistencies seen (at most 20 are kept).
  var violations: [String] { state.withLock { $0.violations } }
  /// The error that ended a listener, if one did.
  var failure: String? { state.withLock { $0.failure } }
  /// The last `v` the document listener saw (`-1`: missing).
  var lastWatched: Int? { state.withLock { $0.lastWatched } }
}
