import FirestoreEngine
import FirestoreWire

extension LocalStoreState {
  // MARK: - Limbo documents

  /// Moves documents in and out of `view`'s ``QueryView/limbo`` for a server snapshot whose
  /// results are `incoming`, taken at `readTime`, before the view takes them.
  ///
  /// A document the listener was shown that the results leave out, though the server did
  /// not remove it, may still exist: the server sent its set again whole (after RESET or a
  /// re-add), and the emulator can send a set that misses a recent commit. As the Apple
  /// SDK, the view keeps showing it until the document's own listen answers. A document
  /// with a write of this client that the listen has not caught up with (not yet
  /// acknowledged, or committed after `readTime`) is shown by that write and needs no
  /// answer. Before the view's first server snapshot it showed the cache, whose matches
  /// the server does not return are stale; only this client's acknowledged writes are kept.
  mutating func updateLimbo(of view: inout QueryView, incoming: Set<String>, removedByServer: Set<String>, readTime: Timestamp) {
    // The results have them again.
    for name in view.limbo where incoming.contains(name) {
      view.limbo.remove(name)
      view.limboDocuments[name] = nil
    }
    guard let shown = view.delivered?.documents else { return }
    let limbo = view.limbo
    var missing = shown.map(\.name).filter { !incoming.contains($0) && !removedByServer.contains($0) && !limbo.contains($0) }
    guard !missing.isEmpty else { return }
    let ahead = names(writtenBy: { $0.commitTime.map { $0 > readTime } ?? false })
    missing.removeAll { ahead.contains($0) }
    if view.server == nil {
      let acknowledged = names(writtenBy: \.isAcknowledged)
      missing.removeAll { !acknowledged.contains($0) }
    }
    hold(missing, inLimboOf: &view)
  }

  /// Puts into the limbo of every view that listens to the server the documents of `names`
  /// it shows but its server results lack, now that a write of this client no longer
  /// speaks for them: the write was rejected (and the results left out the version it was
  /// written over), or acknowledged at `commitTime` (and the listen was consistent past it
  /// without the document before the answer came; a listen still behind the commit shows
  /// the write until it catches up).
  mutating func holdInLimbo(_ names: Set<String>, committedAt commitTime: Timestamp? = nil) {
    guard !views.isEmpty else { return }
    for id in views.keys.sorted() {
      guard var view = views[id], view.source == .default, let server = view.server, let shown = view.delivered?.documents,
        case .query(let structured, _, _, _) = view.query, structured.select == nil
      else { continue }
      if let commitTime, let readTime = view.serverReadTime, readTime < commitTime { continue }
      // The batch's few names first: the view's documents are scanned only for those.
      let absent = names.filter { server[$0] == nil && !view.limbo.contains($0) }
      guard !absent.isEmpty else { continue }
      let missing = shown.lazy.map(\.name).filter { absent.contains($0) }
      guard !missing.isEmpty else { continue }
      hold(Array(missing), inLimboOf: &view)
      views[id] = view
    }
  }

  /// Adds `names` to `view`'s limbo, each shown at the newest version known: the view's
  /// server results, another view's limbo answer, or the cache (which holds an acknowledged
  /// write's outcome). With none known, the acknowledged write that showed it is applied
  /// meanwhile (``QueryView/needs(_:_:)``). Those with a write not yet acknowledged are left
  /// out.
  private mutating func hold(_ names: [String], inLimboOf view: inout QueryView) {
    guard !names.isEmpty else { return }
    let unacknowledged = self.names(writtenBy: { !$0.isAcknowledged })
    for name in names where !unacknowledged.contains(name) {
      view.limbo.insert(name)
      let known = [view.server?[name], cached(name)] + views.values.map { $0.limboDocuments[name] }
      let newest = known.compactMap { $0 }.max { older, newer in
        guard let newerTime = newer.updateTime else { return false }
        return older.updateTime.map { $0 < newerTime } ?? true
      }
      if let newest {
        view.limboDocuments[name] = newest
      }
    }
  }

  /// Takes out of `view`'s limbo the documents it no longer shows (a version that no longer
  /// matches, one the limit pushes out) and those a write of this client, not yet
  /// acknowledged, now shows over a version the cache holds: the view answers for them as
  /// for its own writes. (Without a cached version the limbo one stays the write's base.)
  mutating func releaseLimbo(of view: inout QueryView, showing documents: [Document]) {
    let shown = Set(documents.lazy.map(\.name))
    let unacknowledged = names(writtenBy: { !$0.isAcknowledged })
    for name in view.limbo where !shown.contains(name) || (unacknowledged.contains(name) && cached(name) != nil) {
      view.limbo.remove(name)
      view.limboDocuments[name] = nil
    }
  }

  /// What the listen to limbo document `name` says: `document`, or that it does not exist
  /// (`nil`; also when that listen failed, as the Apple SDK takes a refused one), as of
  /// `readTime` (`nil` for a refused listen).
  mutating func resolveLimbo(_ name: String, _ document: Document?, readTime: Timestamp? = nil) {
    let holding = views.keys.sorted().filter { views[$0]!.limbo.contains(name) }
    guard !holding.isEmpty else { return }
    // The cache learns the answer; a write not yet acknowledged builds on what it holds.
    if document != nil || !batches.contains(where: { !$0.isAcknowledged && $0.documentNames.contains(name) }) {
      store([(name, document)], removedAsOf: readTime)
    }
    for id in holding {
      if let document {
        views[id]!.limboDocuments[name] = document
      } else {
        views[id]!.limbo.remove(name)
        views[id]!.limboDocuments[name] = nil
      }
      refresh(id)
    }
    noteLimboNames()
    pruneBatches()
  }

  /// Recomputes ``limboNames`` after views' limbo sets changed.
  mutating func noteLimboNames() {
    var names = Set<String>()
    for view in views.values where !view.limbo.isEmpty { names.formUnion(view.limbo) }
    guard names != limboNames else { return }
    limboNames = names
    limboNamesChanged = true
  }

  /// The documents written by the batches `included` selects.
  private func names(writtenBy included: (MutationBatch) -> Bool) -> Set<String> {
    Set(batches.lazy.filter(included).flatMap(\.documentNames))
  }
}
