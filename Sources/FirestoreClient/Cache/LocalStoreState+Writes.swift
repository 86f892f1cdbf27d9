import FirestoreWire
import Foundation

extension LocalStoreState {
  // MARK: - Writes

  /// Queues writes as the current user's: kept in the file with a persistent cache, shown
  /// to the listeners at once. Returns the batch ID and what to send now.
  mutating func enqueue(_ writes: [Write], body: Data, localWriteTime: Timestamp) -> (id: Int, actions: [MutationQueue.Action]) {
    var id = nextBatchID
    if storage?.persistsMutations == true {
      let (owner, user, minimum) = (self.owner, self.user, id)
      id = withStorage(minimum) { storage throws(CacheStorageError) in
        try storage.addMutation(body, localWriteTime: localWriteTime, owner: owner, user: user, minimumID: minimum)
      }
    }
    nextBatchID = id + 1
    let batch = MutationBatch(
      id: id, writes: writes, localWriteTime: localWriteTime, commitBody: body,
      incrementBases: incrementBases(of: writes, localWriteTime: localWriteTime), user: user)
    batches.append(batch)
    let actions = queue.enqueue(Self.queueEntry(batch))
    refreshViews(showing: batch.documentNames)
    return (id, actions)
  }

  /// What the increments of `writes`, a new batch, start from: the documents as this
  /// client shows them now, each after the batch's earlier writes to it.
  mutating func incrementBases(of writes: [Write], localWriteTime: Timestamp) -> [[String: Value]] {
    guard writes.contains(where: WriteBuilder.increments) else { return [] }
    var written: [String: Document?] = [:]
    return writes.map { write in
      let name = write.documentName
      // Without a cache (``LocalCacheSettings/none``) only the listeners hold what is shown.
      let listened = storage == nil ? views.values.lazy.compactMap { $0.server?[name] }.first : nil
      let before = written[name] ?? localDocument(name, serverVersion: listened).document
      written[name] = .some(LocalWriteApplier.apply(write, to: before, localWriteTime: localWriteTime, transformResults: nil))
      return LocalWriteApplier.incrementBases(of: write, on: before)
    }
  }

  /// The queue's entry for a batch.
  static func queueEntry(_ batch: MutationBatch) -> MutationQueue.Entry {
    MutationQueue.Entry(id: batch.id, documents: batch.documentNames, isIdempotent: batch.isIdempotent)
  }

  /// The writes of pending batch `id`, about to be sent, and the user whose token must
  /// carry them. A batch that must not be sent twice is first marked in the file as
  /// possibly sent: if the process ends before its answer, the next one drops it rather
  /// than risk applying it again.
  mutating func beginSend(_ id: Int) -> (writes: [Write], body: Data, user: TokenUser?)? {
    guard let index = batchIndex(of: id), !batches[index].isAcknowledged else { return nil }
    let batch = batches[index]
    if !batch.isIdempotent && storage?.persistsMutations == true {
      withStorage(()) { storage throws(CacheStorageError) in try storage.setMutationAttempted(id, true) }
    }
    return (batch.writes, batch.commitBody, batch.user)
  }

  /// Makes `newUser` the one whose batches are shown and sent: the batches of the user
  /// before wait (parked) unless an attempt is under way, `newUser`'s parked batches come
  /// back, and batches queued before any user was known become `newUser`'s. Returns what
  /// to send now.
  mutating func switchUser(to newUser: TokenUser) -> [MutationQueue.Action] {
    guard user != newUser else { return [] }
    // Batches made before the user was known (only then is a batch's user `nil`) were made
    // by whoever the tokens stand for.
    if user == nil { adoptUnknownBatches(newUser) }
    var changed = Set<String>()
    user = newUser
    let leaving = Set(batches.filter { !$0.isAcknowledged && $0.user != newUser }.map(\.id))
    let withdrawn = queue.withdraw(leaving)
    if !withdrawn.isEmpty {
      let moved = batches.filter { withdrawn.contains($0.id) }
      batches.removeAll { withdrawn.contains($0.id) }
      park(moved)
      for batch in moved { changed.formUnion(batch.documentNames) }
    }
    let returning = parked.filter { $0.user == newUser }
    parked.removeAll { $0.user == newUser }
    for batch in returning { changed.formUnion(batch.documentNames) }
    batches = Self.merged(batches, returning)
    let actions = queue.restore(returning.map(Self.queueEntry))
    if !changed.isEmpty { refreshViews(showing: changed) }
    return actions
  }

  /// Makes the pending batches whose user is not known `user`'s, in the file too.
  private mutating func adoptUnknownBatches(_ user: TokenUser) {
    let unknown = batches.indices.filter { batches[$0].user == nil && !batches[$0].isAcknowledged }
    guard !unknown.isEmpty else { return }
    for i in unknown { batches[i].user = user }
    let ids = unknown.map { batches[$0].id }
    if storage?.persistsMutations == true {
      withStorage(()) { storage throws(CacheStorageError) in try storage.setMutationUser(ids, user) }
    }
  }

  /// The index of batch `id` in ``batches``, which are in ID order.
  func batchIndex(of id: Int) -> Int? {
    var (low, high) = (0, batches.count)
    while low < high {
      let middle = (low + high) / 2
      if batches[middle].id < id { low = middle + 1 } else { high = middle }
    }
    return low < batches.count && batches[low].id == id ? low : nil
  }

  /// Adds batches to ``parked``, keeping ID order.
  private mutating func park(_ moved: [MutationBatch]) {
    parked = Self.merged(parked, moved)
  }

  /// Two lists of batches in ID order, merged in ID order.
  private static func merged(_ a: [MutationBatch], _ b: [MutationBatch]) -> [MutationBatch] {
    guard !b.isEmpty else { return a }
    return (a + b).sorted { $0.id < $1.id }
  }

  /// How sending a batch ended, as the sender judged it.
  enum SendResult {
    /// The server applied it.
    case acknowledged([WriteResult])
    /// Keep it and try again later; `notApplied` when this attempt provably did not apply
    /// it, `overloaded` when the server refused it for load.
    case retry(notApplied: Bool, overloaded: Bool = false)
    /// Drop it: refused, or `outcomeUnknown` (it may have applied, and may not be sent again).
    case rejected(outcomeUnknown: Bool)
    /// Not sent: the token is another user's. The batch waits for its user.
    case otherUser
  }

  /// Records how sending batch `id` ended; returns what to send next. An acknowledged batch
  /// leaves the file and the queue here; the cache learns its documents in
  /// ``acknowledgeBatch(_:results:)``, which the store applies after the caller is answered.
  mutating func finishSend(_ id: Int, _ result: SendResult) -> [MutationQueue.Action] {
    switch result {
    case .acknowledged:
      forgetStored(id)
      // The body is not needed again, while the batch may wait in the backlog a while.
      if let index = batchIndex(of: id) { batches[index].commitBody = Data() }
      return queue.finish(id, .acknowledged)
    case .retry(let notApplied, let overloaded):
      if notApplied, storage?.persistsMutations == true, batchIndex(of: id).map({ batches[$0].isIdempotent }) == false {
        withStorage(()) { storage throws(CacheStorageError) in try storage.setMutationAttempted(id, false) }
      }
      return queue.finish(id, overloaded ? .overloaded : .retry)
    case .rejected(let outcomeUnknown):
      forgetStored(id)
      rejectBatch(id, outcomeUnknown: outcomeUnknown)
      return queue.finish(id, .rejected)
    case .otherUser:
      guard let index = batchIndex(of: id) else { return queue.finish(id, .withdrawn) }
      if batches[index].user == user {
        // The user changed back while the attempt was refused: it may go again.
        return queue.finish(id, .retry)
      }
      let batch = batches.remove(at: index)
      park([batch])
      refreshViews(showing: batch.documentNames)
      return queue.finish(id, .withdrawn)
    }
  }

  /// Removes a settled batch from the file.
  private mutating func forgetStored(_ id: Int) {
    guard storage?.persistsMutations == true else { return }
    withStorage(()) { storage throws(CacheStorageError) in try storage.removeMutation(id) }
  }

  /// The highest ID of the batches not yet settled, or `nil` when none is pending.
  var lastPendingBatchID: Int? {
    batches.indices.last { !batches[$0].isAcknowledged }.map { batches[$0].id }
  }

  /// An ID below which every batch made so far is settled: the lowest pending one, or the
  /// next ID when none is pending (batches are in ID order; later ones get higher IDs).
  var settledBelow: Int {
    // By index, not by element: a batch is not copied to read its state.
    batches.indices.first { !batches[$0].isAcknowledged }.map { batches[$0].id } ?? nextBatchID
  }

  /// Loads the batches this store holds in the file, taking over those of owners that are
  /// gone: the current user's (and those whose user is not known) into the queue, other
  /// users' parked. A batch that must not be sent twice and was being sent when its
  /// process ended is dropped and reported: it may have been applied.
  mutating func restoreQueuedBatches() {
    guard storage?.persistsMutations == true else { return }
    let owner = self.owner
    let stored = withStorage([]) { storage throws(CacheStorageError) in
      try storage.claimMutations(owner: owner, isAbandoned: CacheOwner.isAbandoned)
    }
    for mutation in stored {
      nextBatchID = max(nextBatchID, mutation.id + 1)
      // What the increments started from is not stored: the documents as the cache and the
      // batches before this one show them are the closest this process knows.
      let batch = MutationBatch(
        id: mutation.id, writes: mutation.writes, localWriteTime: mutation.localWriteTime, commitBody: mutation.commitBody,
        incrementBases: incrementBases(of: mutation.writes, localWriteTime: mutation.localWriteTime), user: mutation.user)
      if mutation.attempted && !batch.isIdempotent {
        let documents = batch.documentNames.compactMap { path(of: $0) }.sorted().joined(separator: ", ")
        log(
          "Firestore: a queued write of \(documents) was being sent when the previous process ended; "
            + "it may or may not have been applied, so it is not sent again")
        withStorage(()) { storage throws(CacheStorageError) in try storage.removeMutation(mutation.id) }
        continue
      }
      // Until this store knows its user, another user's batch must not go with its tokens.
      if let madeBy = batch.user, madeBy != user {
        park([batch])
        continue
      }
      batches.append(batch)
      restoredActions += queue.enqueue(Self.queueEntry(batch))
    }
    if let user { adoptUnknownBatches(user) }
  }

  /// Writes the pending batches into a storage that was just rebuilt empty.
  mutating func persistPendingBatches() {
    guard let storage, storage.persistsMutations else { return }
    let owner = self.owner
    for batch in Self.merged(batches, parked) where !batch.isAcknowledged {
      _ = try? storage.addMutation(
        batch.commitBody, localWriteTime: batch.localWriteTime, owner: owner, user: batch.user, minimumID: batch.id)
    }
  }

  /// Takes back a batch the server rejected: the listeners' views roll back. When the
  /// batch may have applied after all, its documents leave the cache, which can no longer
  /// tell their state (the next read or listen learns it).
  mutating func rejectBatch(_ id: Int, outcomeUnknown: Bool = false) {
    guard let index = batchIndex(of: id) else { return }
    let batch = batches.remove(at: index)
    if outcomeUnknown {
      let written = Set(batches.flatMap(\.documentNames))
      store([], forgetting: batch.documentNames.filter { !written.contains($0) })
    }
    holdInLimbo(batch.documentNames)
    refreshViews(showing: batch.documentNames)
    // With eager collection, what only the batch pinned goes now, as after an acknowledgement.
    collectGarbage()
  }

  /// Records the server's acceptance of a batch: the cache gets the written documents and
  /// the views keep showing them until their listens catch up.
  mutating func acknowledgeBatch(_ id: Int, results: [WriteResult]) {
    guard let index = batchIndex(of: id), results.count == batches[index].writes.count else {
      return
    }
    batches[index].commitTime = results.first?.commitTime
    if batches[index].isAcknowledged { acknowledgedBatchIDs.append(id) }
    batches[index].acknowledgements = results.map { result in
      .init(updateTime: result.updateTime, transformResults: result.transformResults)
    }
    holdUnconfirmed(batches[index])
    storeCommitted(batches[index])
    holdInLimbo(batches[index].documentNames, committedAt: batches[index].commitTime)
    refreshViews(showing: batches[index].documentNames)
    pruneBatches()
    collectGarbage()
  }

  /// Notes that the documents `batch` wrote, acknowledged now, are pending still for the
  /// views reading the cache that show them pending, unless the cache has the server's
  /// version from the write or later already (a listen or a read came first); keeps only
  /// names such views show pending.
  private mutating func holdUnconfirmed(_ batch: MutationBatch) {
    let shown = trimUnconfirmed()
    guard let commitTime = batch.commitTime, !shown.isEmpty else { return }
    for (i, write) in batch.writes.enumerated() where shown.contains(write.documentName) {
      let written = batch.acknowledgements?[i].updateTime ?? commitTime
      if let held = cachedEntry(write.documentName)?.version, held >= written { continue }
      committedUnconfirmed.insert(write.documentName)
    }
  }

  /// Keeps of ``committedUnconfirmed`` only what the views reading the cache show pending;
  /// returns all they show pending.
  @discardableResult
  mutating func trimUnconfirmed() -> Set<String> {
    var shown = Set<String>()
    for view in views.values where view.server == nil {
      if let pending = view.delivered?.pendingNames { shown.formUnion(pending) }
    }
    committedUnconfirmed.formIntersection(shown)
    return shown
  }

  /// Updates the cache with the outcome of committed writes: documents it held (or that
  /// the write fully determines) get their new version; others are dropped.
  mutating func storeCommitted(_ batch: MutationBatch) {
    guard storage != nil, let commitTime = batch.commitTime else { return }
    // Writes to a document the batch wrote before build on what they made; in a batch that
    // writes each document once (most), each builds on the cache.
    let repeats = batch.documentNames.count < batch.writes.count
    // A document's new state, or (`nil`) that the cache can no longer tell it.
    var updates: [(name: String, document: Document??)] = []
    updates.reserveCapacity(batch.writes.count)
    var staged: [String: Document?] = [:]
    for (i, write) in batch.writes.enumerated() {
      let name = write.documentName
      let written = repeats ? staged[name] : nil
      let base: Document? = written ?? cached(name)
      guard base != nil || LocalWriteApplier.isBlind(write) || written != nil else {
        if repeats { staged[name] = .some(nil) }
        updates.append((name, nil))
        continue
      }
      var document = batch.apply(i, to: base)
      if document != nil {
        document!.updateTime = batch.acknowledgements?[i].updateTime ?? commitTime
        if base == nil && write.currentDocument == .exists(false) { document!.createTime = commitTime }
      }
      if repeats { staged[name] = .some(document) }
      updates.append((name, .some(document)))
    }
    // The cache keeps the last state of each document: a deleted one as missing since the
    // commit. A delete takes out no version the cache learned from past the commit.
    if repeats {
      var seen = Set<String>()
      updates = Array(updates.reversed().filter { seen.insert($0.name).inserted }.reversed())
    }
    var known: [(name: String, document: Document?)] = []
    known.reserveCapacity(updates.count)
    var forgotten: [String] = []
    for update in updates {
      if let document = update.document { known.append((update.name, document)) } else { forgotten.append(update.name) }
    }
    store(known, forgetting: forgotten, removedAsOf: commitTime, committed: true)
  }
}
