import FirestoreEngine
import FirestoreWire

extension LocalStoreState {
  // MARK: - Views

  /// The view's documents now: its server results (or, before the first server snapshot,
  /// the cache's) with the writes it still needs applied, matched, ordered and limited.
  mutating func documents(of view: QueryView) -> (documents: [Document], pending: Set<String>) {
    guard let server = view.server else { return localQuery(view.query) }
    // The common case, no write of this client in the way: the server's view as it is.
    let applicable = batches.contains { batch in
      batch.writes.indices.contains { i in
        view.needs(batch, i) && path(of: batch.writes[i].documentName).map(view.query.covers(path:)) == true
      }
    }
    if !applicable { return (view.serverDocuments, []) }
    return overlay(view.query, on: server, lookingUpOthers: true, applies: view.needs)
  }

  /// Recomputes view `id` and delivers a snapshot if its listener should hear of the change.
  mutating func refresh(_ id: Int) {
    guard var view = views[id] else { return }
    let (documents, pending) = documents(of: view)
    let snapshot = view.snapshot(documents: documents, pendingNames: pending)
    views[id] = view
    if let snapshot { view.emit(snapshot) }
  }

  /// Recomputes the views that can show any of `names`.
  mutating func refreshViews(showing names: Set<String>) {
    let paths = names.compactMap { path(of: $0) }
    for id in views.keys.sorted() where paths.contains(where: { views[id]!.query.covers(path: $0) }) {
      refresh(id)
    }
  }

  /// Applies a listen snapshot to view `id`: the cache learns the server's documents, and
  /// the view's server results are replaced.
  mutating func applyWatch(_ id: Int, _ snapshot: WatchSnapshot) {
    guard var view = views[id] else { return }
    var updates: [(name: String, document: Document?)] = []
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
      // Documents that left the results changed on the server (or the limit pushed them
      // out): their cached version can no longer be trusted to match. Those with writes in
      // flight stay: the writes build on them.
      let written = Set(batches.flatMap(\.documentNames))
      for name in (view.server ?? [:]).keys where !incoming.contains(name) && !written.contains(name) {
        updates.append((name, nil))
      }
      if view.server == nil && structured.limit == nil && structured.startAt == nil && structured.endAt == nil {
        // The first complete answer: cached documents that match locally but not on the
        // server are stale.
        for name in staleMatches(view.query, returned: incoming) { updates.append((name, nil)) }
      }
    }
    store(updates)
    view.server = Dictionary(snapshot.documents.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
    view.serverDocuments = snapshot.documents
    view.serverReadTime = snapshot.readTime
    views[id] = view
    refresh(id)
    pruneBatches()
  }

  /// Forgets acknowledged batches no view needs any more.
  mutating func pruneBatches() {
    var kept: [MutationBatch] = []
    for batch in batches {
      if !batch.isAcknowledged || views.values.contains(where: { stillShows(batch, in: $0) }) { kept.append(batch) }
    }
    batches = kept
  }

  /// Whether an acknowledged batch still changes what `view` shows: its listen has not
  /// caught up with a write to a document the view holds, or that the write brings in.
  /// (A write that leaves a document outside the view changes nothing the listen would
  /// report, so waiting for the listen to show it would keep the batch forever.)
  private mutating func stillShows(_ batch: MutationBatch, in view: QueryView) -> Bool {
    for (i, write) in batch.writes.enumerated() where view.needs(batch, i) {
      let name = write.documentName
      guard let path = path(of: name), view.query.covers(path: path) else { continue }
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

  // MARK: - Writes

  /// Records writes about to be committed and shows them to the listeners at once.
  mutating func addBatch(_ writes: [Write], localWriteTime: Timestamp) -> Int {
    let id = nextBatchID
    nextBatchID += 1
    let batch = MutationBatch(id: id, writes: writes, localWriteTime: localWriteTime)
    batches.append(batch)
    refreshViews(showing: batch.documentNames)
    return id
  }

  /// Takes back a batch the server rejected: the listeners' views roll back.
  mutating func rejectBatch(_ id: Int) {
    guard let index = batches.firstIndex(where: { $0.id == id }) else { return }
    let batch = batches.remove(at: index)
    refreshViews(showing: batch.documentNames)
  }

  /// Records the server's acceptance of a batch: the cache gets the written documents and
  /// the views keep showing them until their listens catch up.
  mutating func acknowledgeBatch(_ id: Int, results: [WriteResult]) {
    guard let index = batches.firstIndex(where: { $0.id == id }), results.count == batches[index].writes.count else {
      return
    }
    batches[index].commitTime = results.first?.commitTime
    batches[index].acknowledgements = results.map { result in
      .init(updateTime: result.updateTime, transformResults: result.transformResults)
    }
    storeCommitted(batches[index])
    refreshViews(showing: batches[index].documentNames)
    pruneBatches()
  }

  /// Updates the cache with the outcome of committed writes: documents it held (or that
  /// the write fully determines) get their new version; others are dropped.
  mutating func storeCommitted(_ batch: MutationBatch) {
    guard storage != nil, let commitTime = batch.commitTime else { return }
    var updates: [(name: String, document: Document?)] = []
    var staged: [String: Document?] = [:]
    for (i, write) in batch.writes.enumerated() {
      let name = write.documentName
      let base: Document? = staged[name] ?? cached(name)
      guard base != nil || LocalWriteApplier.isBlind(write) || staged[name] != nil else {
        staged[name] = .some(nil)
        updates.append((name, nil))
        continue
      }
      var document = batch.apply(i, to: base)
      if document != nil {
        document!.updateTime = batch.acknowledgements?[i].updateTime ?? commitTime
        if base == nil && write.currentDocument == .exists(false) { document!.createTime = commitTime }
      }
      staged[name] = .some(document)
      updates.append((name, document))
    }
    // The cache keeps the last state of each document.
    var seen = Set<String>()
    let last = updates.reversed().filter { seen.insert($0.name).inserted }
    store(Array(last.reversed()))
  }
}
