import FirestoreEngine
import FirestoreWire

extension LocalStoreState {
  // MARK: - Views

  /// The view's documents now: its server results (or, before the first server snapshot,
  /// the cache's) with the writes it still needs applied, matched, ordered and limited.
  mutating func documents(of view: QueryView) -> (documents: [Document], pending: Set<String>) {
    guard view.server != nil else {
      var local = localQuery(view.query)
      guard let shown = view.delivered?.pendingNames, !committedUnconfirmed.isEmpty else { return local }
      let held = committedUnconfirmed.intersection(shown).subtracting(local.pending)
      if !held.isEmpty { local.pending.formUnion(local.documents.lazy.map(\.name).filter(held.contains)) }
      return local
    }
    // The common case, no write of this client in the way: the server's view as it is.
    let applicable = batches.contains { batch in
      batch.writes.indices.contains { i in
        view.needs(batch, i) && path(of: batch.writes[i].documentName).map(view.query.covers(path:)) == true
      }
    }
    if !applicable && view.limboDocuments.isEmpty { return (view.serverDocuments, []) }
    return overlay(view.query, on: view.heldDocuments, lookingUpOthers: true, applies: view.needs, pending: view.countsAsPending)
  }

  /// Recomputes view `id` and delivers a snapshot if its listener should hear of the change.
  /// A view of a query that another listener has in sync with the server shows that
  /// listener's state while it has no server data of its own — a cache-only view always, a
  /// new listener's until its own target answers — as the Apple SDK's listeners of one
  /// query share one view: a second listener's first snapshot is then the server's, not the
  /// cache's. When a server listener's state changes, those views of its query follow.
  mutating func refresh(_ id: Int) {
    guard var view = views[id] else { return }
    let synced = view.follows ? syncedView(of: view.query) : nil
    let (documents, pending) = documents(of: synced ?? view)
    if !view.limbo.isEmpty {
      releaseLimbo(of: &view, showing: documents)
      views[id] = view
      noteLimboNames()
    }
    let snapshot = view.snapshot(
      documents: documents, pendingNames: pending, acknowledgedOnly: acknowledgedOnly(pending), listenOffline: isListenOffline,
      hasCachedResults: view.delivered == nil && view.source == .default && holdsAnswer(to: view.query), syncedBy: synced)
    views[id] = view
    if let snapshot {
      deliveredSinceSync = true
      view.emit(snapshot)
    }
    // A follower refreshes no one: only a view with server data of its own leads.
    guard !view.follows, views.values.contains(where: \.follows) else { return }
    for other in views.keys.sorted() where other != id && views[other]!.follows && views[other]!.query == view.query {
      refresh(other)
    }
  }

  /// Records that the server answered `query`, when the cache keeps the answer: not an eager
  /// cache, which lets documents go with their last listener (as the Apple SDK's eager
  /// collection lets a target's results go).
  mutating func noteAnswered(_ query: ViewQuery) {
    guard storage != nil, !isEager else { return }
    answeredQueries.insert(query)
  }

  /// Whether the cache holds the server's earlier answer to `query`: it was answered, and,
  /// for one document, the cache still knows it (a version, or that there is none); an
  /// answer it let go since (an outcome it could not tell) says nothing.
  mutating func holdsAnswer(to query: ViewQuery) -> Bool {
    guard answeredQueries.contains(query) else { return false }
    guard case .document(let name, _) = query else { return true }
    return cachedEntry(name) != nil
  }

  /// Records that the server said what the document `name` is, or that there is none.
  mutating func noteAnswered(documentNamed name: String) {
    guard storage != nil, !isEager else { return }
    answeredQueries.insert(documentNamed: name)
  }

  /// Of the `pending` documents, those whose every write the server has acknowledged: the
  /// listen has yet to catch up with them (the Apple SDK's documents with committed
  /// mutations).
  func acknowledgedOnly(_ pending: Set<String>) -> Set<String> {
    guard !pending.isEmpty else { return [] }
    var acknowledgedOnly = pending
    for batch in batches where !batch.isAcknowledged {
      for write in batch.writes { acknowledgedOnly.remove(write.documentName) }
    }
    return acknowledgedOnly
  }

  /// A view of `query` that listens to the server and is in sync with it, if any.
  func syncedView(of query: ViewQuery) -> QueryView? {
    views.keys.sorted().lazy.compactMap { self.views[$0] }.first { $0.isSynced && $0.query == query }
  }

  /// Recomputes the views that read the cache only (``ListenSource/cache``) and can show any
  /// of `names`: the cache learned something new about them.
  mutating func refreshCacheViews(showing names: Set<String>) {
    let cacheViews = views.keys.filter { views[$0]!.source == .cache }
    guard !cacheViews.isEmpty else { return }
    let paths = names.compactMap { path(of: $0) }
    for id in cacheViews.sorted() where paths.contains(where: { views[id]!.query.covers(path: $0) }) {
      refresh(id)
    }
  }

  /// The listen stream is down (it broke, or the network was disabled): every view that
  /// listens to the server shows its data as from the cache until its target is back in sync.
  mutating func listenConnectionLost() {
    isListenOffline = true
    for id in views.keys.sorted() where views[id]!.source == .default { markOutOfSync(id) }
  }

  /// View `id`'s server data may be out of date (the stream went down, or its target runs
  /// again from scratch): it shows its data as from the cache until the target is in sync.
  mutating func markOutOfSync(_ id: Int) {
    guard views[id]?.isStale == false else { return }
    views[id]!.isStale = true
    refresh(id)
  }

  /// Recomputes the views that can show any of `names`.
  mutating func refreshViews(showing names: Set<String>) {
    guard !views.isEmpty else { return }
    let paths = names.compactMap { path(of: $0) }
    for id in views.keys.sorted() where paths.contains(where: { views[id]!.query.covers(path: $0) }) {
      refresh(id)
    }
  }

  /// Applies a listen snapshot to view `id`: the cache learns the server's documents, and
  /// the view's server results are replaced.
  mutating func applyWatch(_ id: Int, _ snapshot: WatchSnapshot) {
    isListenOffline = false
    guard var view = views[id] else { return }
    view.isStale = false
    var updates: [(name: String, document: Document?)] = []
    var leftOut: [String] = []
    switch view.query {
    case .document(let name, _):
      updates.append((name, snapshot.documents.first))
    case .query(let structured, _, _, _):
      let incoming = Set(snapshot.documents.map(\.name))
      // A projection (`select`) delivers partial documents: stored, they would pass for
      // whole ones in later cache reads (an ID-only listen would cache empty documents).
      // Like a projected runQuery, it teaches the cache nothing but removals.
      let isProjected = structured.select != nil
      for document in snapshot.documents where !isProjected && view.server?[document.name] != document {
        updates.append((document.name, document))
      }
      if !isProjected {
        updateLimbo(of: &view, incoming: incoming, removedByServer: snapshot.removedByServer, readTime: snapshot.readTime)
      }
      // Documents that left the results changed on the server (or the limit pushed them
      // out): their cached version can no longer be trusted to match. Those with writes in
      // flight stay (the writes build on them), as do those kept in limbo.
      let written = Set(batches.flatMap(\.documentNames))
      leftOut = (view.server ?? [:]).keys.filter { !incoming.contains($0) && !written.contains($0) }
      if view.server == nil && structured.limit == nil && structured.startAt == nil && structured.endAt == nil {
        // The first complete answer: cached documents that match locally but not on the
        // server are stale.
        leftOut += staleMatches(view.query, returned: incoming)
      }
    }
    if view.server == nil { noteAnswered(view.query) }
    view.server = Dictionary(snapshot.documents.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
    view.serverDocuments = snapshot.documents
    view.serverReadTime = snapshot.readTime
    if !view.limbo.isEmpty { releaseLimbo(of: &view, showing: documents(of: view).documents) }
    let forgotten = leftOut.filter { !view.limbo.contains($0) }
    views[id] = view
    noteLimboNames()
    // The view is in sync before the cache learns its documents: a cache-only listener of
    // the same query, refreshed by what the cache learns, shows them as that view's
    // server state in one snapshot, not first as cached data.
    let outdated = store(updates, forgetting: forgotten, removedAsOf: snapshot.readTime)
    if !outdated.isEmpty { showNewer(outdated, in: id) }
    refresh(id)
    pruneBatches()
    collectGarbage()
  }

  /// A watch snapshot can carry a document older than the cache's (learned since from
  /// another listen or a read): the view shows the cache's newer version, as the SDKs'
  /// views read the newest version held, so the listener does not step back to old data
  /// and forward again. A document this client's writes still tracked touch is left to
  /// them: an acknowledged write stays applied, and pending, until the listen catches up
  /// with its commit (``QueryView/needs(_:_:)``).
  private mutating func showNewer(_ names: Set<String>, in id: Int) {
    guard var view = views[id], var server = view.server else { return }
    let written = Set(batches.flatMap(\.documentNames))
    for name in names where !written.contains(name) { server[name] = cached(name) }
    view.server = server
    switch view.query {
    case .document(let name, _): view.serverDocuments = server[name].map { [$0] } ?? []
    case .query(let structured, _, _, _): view.serverDocuments = QueryEvaluator.evaluate(structured, over: Array(server.values))
    }
    views[id] = view
  }

  /// Forgets acknowledged batches no view needs any more.
  mutating func pruneBatches() {
    guard !acknowledgedBatchIDs.isEmpty else { return }
    // By index: the pending batches, most of them, are neither copied nor moved.
    var done: [Int] = []
    var kept: [Int] = []
    for id in acknowledgedBatchIDs {
      guard let i = batchIndex(of: id), batches[i].isAcknowledged else { continue }
      let batch = batches[i]
      if views.values.contains(where: { stillShows(batch, in: $0) }) { kept.append(id) } else { done.append(i) }
    }
    acknowledgedBatchIDs = kept
    for i in done.sorted(by: >) { batches.remove(at: i) }
  }

  /// Whether an acknowledged batch still changes what `view` shows: its listen has not
  /// caught up with a write to a document the view holds, or that the write brings in, or
  /// the view has no server data yet (its first snapshot may predate the commit).
  /// (A write that leaves a document outside the view changes nothing the listen would
  /// report, so waiting for the listen to show it would keep the batch forever.)
  private mutating func stillShows(_ batch: MutationBatch, in view: QueryView) -> Bool {
    for (i, write) in batch.writes.enumerated() {
      let name = write.documentName
      guard let path = path(of: name), view.query.covers(path: path) else { continue }
      // A view that has no server data yet shows the cache, which has the write; but its
      // first server snapshot may be older than the commit, and must not hide the write.
      if view.server == nil && view.source == .default { return true }
      guard view.needs(batch, i) else { continue }
      if view.server?[name] != nil { return true }
      // The cache already holds the write's outcome when it could be computed.
      guard let result = cached(name) ?? batch.apply(i, to: nil) else { continue }
      switch view.query {
      case .document: return true
      case .query(var structured, _, _, _):
        structured.limit = nil
        structured.offset = nil
        if !QueryEvaluator.evaluate(structured, over: [result]).isEmpty { return true }
      }
    }
    return false
  }
}
