import FirestoreEngine
import FirestoreWire

extension LocalStoreState {
  // MARK: - Limbo documents

  /// Moves documents in and out of `view`'s ``QueryView/limbo`` for a server snapshot whose
  /// results are `incoming`, before the view takes them.
  ///
  /// A document the listener was shown that the results leave out, though the server did
  /// not remove it, may still exist: the server sent its set again whole (after RESET or a
  /// re-add), and the emulator can send a set that misses a recent commit. As the Apple
  /// SDK, the view keeps showing it until the document's own listen answers. A document
  /// with a write not yet acknowledged is shown by that write and needs no answer.
  mutating func updateLimbo(of view: inout QueryView, incoming: Set<String>, removedByServer: Set<String>) {
    for name in view.limbo where incoming.contains(name) || removedByServer.contains(name) {
      view.limbo.remove(name)
      view.limboDocuments[name] = nil
    }
    guard view.server != nil, let shown = view.delivered?.documents else { return }
    let limbo = view.limbo
    let missing = shown.map(\.name).filter { !incoming.contains($0) && !removedByServer.contains($0) && !limbo.contains($0) }
    guard !missing.isEmpty else { return }
    let unacknowledged = Set(batches.lazy.filter { !$0.isAcknowledged }.flatMap(\.documentNames))
    for name in missing where !unacknowledged.contains(name) {
      view.limbo.insert(name)
      if let held = view.server?[name] { view.limboDocuments[name] = held }
    }
  }

  /// Takes out of `view`'s limbo the documents it does not show any more (a version that
  /// no longer matches, one pushed out by the limit, one a write of this client removed).
  mutating func pruneLimbo(of view: inout QueryView) {
    guard !view.limbo.isEmpty else { return }
    let shown = Set(documents(of: view).documents.lazy.map(\.name))
    for name in view.limbo where !shown.contains(name) {
      view.limbo.remove(name)
      view.limboDocuments[name] = nil
    }
  }

  /// What the listen to limbo document `name` says: `document`, or that it does not exist
  /// (`nil`; also when that listen failed, as the Apple SDK takes a refused one).
  mutating func resolveLimbo(_ name: String, _ document: Document?) {
    let holding = views.keys.sorted().filter { views[$0]!.limbo.contains(name) }
    guard !holding.isEmpty else { return }
    if !batches.contains(where: { $0.documentNames.contains(name) }) { store([(name, document)]) }
    for id in holding {
      var view = views[id]!
      if let document {
        view.limboDocuments[name] = document
      } else {
        view.limbo.remove(name)
        view.limboDocuments[name] = nil
      }
      pruneLimbo(of: &view)
      views[id] = view
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
}
