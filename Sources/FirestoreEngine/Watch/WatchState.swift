import FirestoreWire
import Foundation

/// The client side of the Listen protocol for many targets on one stream, as a pure value:
/// feed it every `ListenResponse` and it returns what to deliver.
///
/// It follows the official SDKs' watch change aggregator and view:
///
/// * Each target keeps the server's document set (`documentChange` with the target in
///   `targetIds` adds or updates; in `removedTargetIds`, `documentDelete` and
///   `documentRemove` take out). RESET empties it (the server re-sends everything, then
///   CURRENT again; the emulator does this on every change).
/// * Snapshots are raised only at a global consistent point (`NO_CHANGE` for all targets with
///   a read time) for targets that are CURRENT, and only when the ordered view changed
///   (a document's `updateTime` changed, or documents came or went), none was delivered yet,
///   or the target is back in sync after a connection loss (then possibly with no changes).
/// * Each snapshot names the documents the server took out one by one since the previous
///   one (``WatchSnapshot/removedByServer``), so that the client can tell them from
///   documents a re-sent set merely leaves out.
/// * Resume tokens are committed at those points only, with the document set they describe,
///   so resuming never skips a change the listener has not seen.
/// * Each addTarget/removeTarget request owes one ADD/REMOVE response; while responses are
///   owed the target ignores changes (they belong to its previous incarnation). ADD or
///   REMOVE for targets owing nothing is ignored, as are changes for unknown targets, and
///   re-delivered changes are harmless (an older `updateTime` never replaces a newer one).
public struct WatchState: Sendable {
  private struct TargetState: Sendable {
    var ordering: DocumentOrdering
    /// A documents target's names; `nil` for a query target.
    var documentNames: Set<String>?
    /// Where a query target's documents lie (its parent and collection), when known.
    var scope: QueryScope?
    /// The server's document set as received, including changes not yet at a consistent point.
    var pending: [String: Document] = [:]
    /// The document set at the last consistent point; describes `committedToken`.
    var base: [String: Document] = [:]
    var committedToken: Data?
    var latestToken: Data?
    var current = false
    /// The last view delivered, or `nil` before the first snapshot.
    var emitted: [Document]?
    /// Names the server took out one by one since `emitted` (see
    /// ``WatchSnapshot/removedByServer``); a later change that brings one back clears it.
    var removedByServer: Set<String> = []
    /// ADD/REMOVE responses still owed for requests sent.
    var owed = 1
    /// After a connection loss: the client will re-send addTarget (counted in `owed`).
    var awaitingReAdd = false
    /// After a connection loss: the next consistent point raises a snapshot even when
    /// nothing changed, so that the listener learns it is back in sync.
    var announcesResync = false

    var isSettled: Bool { owed == 0 }
    var isDocumentsTarget: Bool { documentNames != nil }
    /// What a resumed listen starts from: the committed set, or nothing without a token.
    var resumeBase: [String: Document] { committedToken == nil ? [:] : base }

    mutating func updateToken(_ token: Data?) {
      if let token, !token.isEmpty { latestToken = token }
    }
  }

  private var targets: [Int32: TargetState] = [:]
  /// The read time of the last global consistent point snapshots were raised at.
  private var lastConsistentReadTime: Timestamp?
  /// Targets the client removed whose REMOVE responses are still owed.
  private var removing: [Int32: Int] = [:]

  /// Creates a state with no targets.
  public init() {}

  /// The IDs of the registered targets, ascending.
  public var targetIDs: [Int32] { targets.keys.sorted() }

  /// Registers a target whose addTarget request is being sent (pending until its ADD, no
  /// snapshot until CURRENT and a consistent point).
  ///
  /// Pass `query` for a query target (its order and limit are applied) or `documents` for a
  /// documents target (ordered by name). Registering an ID that is already registered is a
  /// re-listen: the last delivered view is kept, so the next snapshot reports only the real
  /// differences; send it with ``resumeToken(for:)``. After ``connectionLost()`` re-adding a
  /// registered target is optional bookkeeping (it is already expected).
  public mutating func addTarget(_ id: Int32, query: StructuredQuery?, documents: [String]?) {
    let ordering = query.map(DocumentOrdering.init(query:)) ?? .byName
    if var t = targets[id] {
      if t.awaitingReAdd { t.awaitingReAdd = false } else { t.owed += 1 }
      t.ordering = ordering
      t.documentNames = query == nil ? Set(documents ?? []) : nil
      t.pending = t.resumeBase
      t.latestToken = t.committedToken
      t.current = false
      targets[id] = t
    } else {
      var t = TargetState(ordering: ordering, documentNames: query == nil ? Set(documents ?? []) : nil)
      // A reused ID whose REMOVE is still owed: that response arrives first.
      t.owed += removing.removeValue(forKey: id) ?? 0
      targets[id] = t
    }
  }

  /// Registers `target` (see ``addTarget(_:query:documents:)``).
  ///
  /// A new target with a `resumeToken` resumes an earlier listen to the same documents:
  /// `documents` is what that listen held at the token's consistent point (see
  /// ``resumePoint(for:)``), and the server sends only what changed since.
  public mutating func addTarget(_ target: Target, resumingFrom documents: [Document] = []) {
    let isNew = targets[target.targetID] == nil
    switch target.kind {
    case .query(_, let query): addTarget(target.targetID, query: query, documents: nil)
    case .documents(let names): addTarget(target.targetID, query: nil, documents: names)
    }
    if case .query(let parent, let query) = target.kind, let from = query.from.first {
      targets[target.targetID]!.scope = QueryScope(parent: parent, collection: from)
    }
    guard isNew, let token = target.resumeToken else { return }
    let base = Dictionary(documents.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
    targets[target.targetID]!.base = base
    targets[target.targetID]!.pending = base
    targets[target.targetID]!.committedToken = token
    targets[target.targetID]!.latestToken = token
  }

  /// Where a listen of target `id` could resume from after it is removed: the token
  /// committed at its last consistent point, and the update time of each document it held
  /// there; `nil` without a token (or with a document the server gave no update time).
  public func resumePoint(for id: Int32) -> (token: Data, versions: [String: Timestamp])? {
    guard let t = targets[id], let token = t.committedToken else { return nil }
    var versions: [String: Timestamp] = [:]
    for (name, document) in t.base {
      guard let time = document.updateTime else { return nil }
      versions[name] = time
    }
    return (token, versions)
  }

  /// Forgets a target whose removeTarget request is being sent; nothing more is delivered
  /// for it. Unknown IDs are ignored.
  public mutating func removeTarget(_ id: Int32) {
    guard let t = targets.removeValue(forKey: id) else { return }
    // A target awaiting its re-add is unknown to the new stream: no response will come (and
    // stray ADD/REMOVE for an unknown ID are ignored anyway).
    if !t.awaitingReAdd { removing[id] = t.owed + 1 }
  }

  /// The resume token to send when re-adding `id`: the one committed at the last consistent
  /// point the target was CURRENT at, or `nil` (listen from scratch).
  public func resumeToken(for id: Int32) -> Data? {
    targets[id]?.committedToken
  }

  /// Forgets everything after the last consistent point: the stream is gone.
  ///
  /// Resume tokens and delivered views are kept. Every registered target now awaits an
  /// addTarget on the new stream (with ``resumeToken(for:)``); see ``targetIDs``.
  public mutating func connectionLost() {
    removing = [:]
    for id in targets.keys {
      targets[id]!.pending = targets[id]!.resumeBase
      targets[id]!.latestToken = targets[id]!.committedToken
      targets[id]!.current = false
      targets[id]!.owed = 1
      targets[id]!.awaitingReAdd = true
      targets[id]!.announcesResync = targets[id]!.emitted != nil
    }
  }

  /// Applies one server message and returns what to deliver, in target-ID order.
  public mutating func apply(_ response: ListenResponse) -> [WatchAction] {
    switch response {
    case .targetChange(let change):
      return apply(change)
    case .documentChange(let change):
      for id in change.targetIDs { upsert(change.document, in: id) }
      for id in change.removedTargetIDs { remove(change.document.name, from: id) }
    case .documentDelete(let delete):
      for id in delete.removedTargetIDs { remove(delete.document, from: id) }
    case .documentRemove(let remove):
      for id in remove.removedTargetIDs { self.remove(remove.document, from: id) }
    case .filter(let filter):
      return apply(filter)
    }
    return []
  }

  // MARK: - Target changes

  private mutating func apply(_ change: ListenResponse.TargetChange) -> [WatchAction] {
    let ids = change.targetIDs.isEmpty ? targetIDs : change.targetIDs
    switch change.kind {
    case .noChange:
      // A stream that reconnected to a server behind the last point (a lagging replica)
      // would show an older state as in sync: the SDKs wait for one at least as recent,
      // and its token does not describe what the listeners hold.
      if change.isGlobalConsistencyPoint, let readTime = change.readTime, let last = lastConsistentReadTime, readTime < last {
        return []
      }
      for id in ids where targets[id]?.isSettled == true { targets[id]!.updateToken(change.resumeToken) }
      if change.isGlobalConsistencyPoint, let readTime = change.readTime {
        lastConsistentReadTime = readTime
        return raiseSnapshots(readTime: readTime)
      }
    case .add:
      // An ADD answers the addTarget of each target it names; one naming none answers none.
      for id in change.targetIDs {
        guard var t = targets[id], t.owed > 0 else { continue }
        t.owed -= 1
        t.awaitingReAdd = false
        if t.isSettled {
          // A fresh listen: whatever arrived before belonged to the previous incarnation.
          t.pending = t.resumeBase
          t.current = false
          t.updateToken(change.resumeToken)
        }
        targets[id] = t
      }
    case .remove:
      return applyRemove(ids: change.targetIDs.isEmpty ? targetIDs + removing.keys.sorted() : change.targetIDs, cause: change.cause)
    case .current:
      for id in ids where targets[id]?.isSettled == true {
        targets[id]!.current = true
        targets[id]!.updateToken(change.resumeToken)
      }
    case .reset:
      for id in ids where targets[id]?.isSettled == true {
        targets[id]!.pending = [:]
        targets[id]!.current = false
        targets[id]!.updateToken(change.resumeToken)
      }
    }
    return []
  }

  private mutating func applyRemove(ids: [Int32], cause: ListenResponse.TargetChange.Cause?) -> [WatchAction] {
    var actions: [WatchAction] = []
    for id in ids {
      if let owed = removing[id] {
        // The reply to our removeTarget (or an error racing it): nobody listens any more.
        if cause != nil || owed <= 1 { removing[id] = nil } else { removing[id] = owed - 1 }
      } else if let cause, targets[id] != nil {
        targets[id] = nil
        actions.append(.targetError(targetID: id, code: cause.code, message: cause.message))
      } else if let t = targets[id], t.owed > 0 {
        // The REMOVE half of a re-listen.
        targets[id]!.owed -= 1
      }
      // A REMOVE without cause nobody asked for (e.g. a `once` target) is ignored.
    }
    return actions
  }

  private mutating func raiseSnapshots(readTime: Timestamp) -> [WatchAction] {
    var actions: [WatchAction] = []
    for id in targetIDs {
      guard var t = targets[id], t.isSettled, t.current else { continue }
      t.base = t.pending
      t.committedToken = t.latestToken
      let view = t.ordering.view(of: t.pending.values)
      if let old = t.emitted {
        let changes = WatchChange.changes(from: old, to: view, ordering: t.ordering)
        if !changes.isEmpty || t.announcesResync {
          t.announcesResync = false
          let removed = t.removedByServer.intersection(old.lazy.map(\.name))
          actions.append(
            .snapshot(
              targetID: id, WatchSnapshot(documents: view, changes: changes, readTime: readTime, isInitial: false, removedByServer: removed)
            ))
          t.removedByServer = []
          // Only a delivered view is compared against: a re-sent document with the same
          // updateTime but other contents raises nothing, and its later removal must carry
          // the version the listener saw.
          t.emitted = view
        }
      } else {
        let changes = view.enumerated().map { WatchChange(kind: .added, document: $1, oldIndex: -1, newIndex: $0) }
        actions.append(.snapshot(targetID: id, WatchSnapshot(documents: view, changes: changes, readTime: readTime, isInitial: true)))
        t.emitted = view
        t.removedByServer = []
      }
      targets[id] = t
    }
    return actions
  }

  // MARK: - Documents

  private mutating func upsert(_ document: Document, in id: Int32) {
    guard targets[id]?.isSettled == true else { return }
    // A document the target cannot hold is not its answer, whatever the server says: one
    // another documents target watches would show under the watched name, one outside a
    // query's collection among its results.
    if let names = targets[id]!.documentNames, !names.contains(document.name) { return }
    if let scope = targets[id]!.scope, !scope.contains(document.name) { return }
    if let held = targets[id]!.pending[document.name], let heldTime = held.updateTime, let newTime = document.updateTime,
      newTime < heldTime
    {
      return  // A stale re-delivery must not roll the document back.
    }
    targets[id]!.pending[document.name] = document
    targets[id]!.removedByServer.remove(document.name)
  }

  private mutating func remove(_ name: String, from id: Int32) {
    guard targets[id]?.isSettled == true else { return }
    targets[id]!.pending[name] = nil
    targets[id]!.removedByServer.insert(name)
  }

  private mutating func apply(_ filter: ListenResponse.ExistenceFilter) -> [WatchAction] {
    let id = filter.targetID
    guard var t = targets[id], t.isSettled, Int(filter.count) != t.pending.count else { return [] }
    if t.isDocumentsTarget && filter.count == 0 {
      // None of the watched documents exists: that is an answer, not a mismatch.
      t.pending = [:]
      targets[id] = t
      return []
    }
    // Start over without a token; the client sends removeTarget and addTarget (2 responses).
    // Its listener is out of sync meanwhile, and learns it is back even if nothing changed.
    t.pending = [:]
    t.base = [:]
    t.committedToken = nil
    t.latestToken = nil
    t.current = false
    t.owed += 2
    // A listener that saw a snapshot hears it is back in sync even if nothing changed.
    t.announcesResync = t.emitted != nil
    targets[id] = t
    return [.resetTarget(targetID: id)]
  }
}
