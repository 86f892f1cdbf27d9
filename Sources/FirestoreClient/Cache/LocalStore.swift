import FirestoreEngine
import FirestorePlatform
import FirestoreWire
import Foundation

/// A ``Firestore`` instance's local view of the database: the cache of server documents
/// (memory or SQLite, see ``LocalCacheSettings``), the writes this client has made but the
/// server has not settled, and every listener's view, which shows those writes at once
/// (latency compensation).
///
/// All of it sits behind one lock, so a write, a server answer and a listener's snapshot
/// are seen in one order. Snapshots are handed to listeners under the lock (their streams
/// only buffer them), which keeps each listener's snapshots in order.
///
/// The queue of writes (``MutationQueue``) lives here too, so that a write is queued and
/// shown in one step; ``WritePipeline`` does the sending.
final class LocalStore: Sendable {
  private let state: Locked<LocalStoreState>
  /// The snapshots-in-sync listeners, called after a round of snapshots was delivered.
  private let syncListeners = Locked<[Int: @Sendable () -> Void]>([:])
  private let nextSyncListenerID = Locked(0)
  /// This store's name as the holder of queued batches (see ``CacheOwner``).
  let owner: String
  /// The SQLite file of a persistent cache.
  let filePath: String?

  /// Opens the cache `settings` describe for the database whose documents live under
  /// `documentsRoot`, with the write batches a previous run left queued in a persistent
  /// file; problems with the file are reported through `log`.
  init(
    settings: LocalCacheSettings, projectID: String, databaseID: String, documentsRoot: String,
    log: @escaping @Sendable (String) -> Void
  ) {
    var filePath: String?
    if case .persistent(let directory, _) = settings {
      filePath = directory.appendingPathComponent(Self.fileName(projectID: projectID, databaseID: databaseID)).path
    }
    self.filePath = filePath
    owner = CacheOwner.make()
    state = Locked(LocalStoreState(settings: settings, filePath: filePath, documentsRoot: documentsRoot, owner: owner, log: log))
  }

  deinit { CacheOwner.close(owner) }

  /// Closes the storage (``Firestore/terminate()``); queued batches stay in the file for the
  /// next instance.
  func close() {
    state.withLock { s in
      s.storage?.close()
      s.storage = nil
    }
    CacheOwner.close(owner)
  }

  /// Runs `body` on the state under the lock; then, when a view delivered a snapshot and
  /// the round is over, calls the snapshots-in-sync listeners.
  private func mutate<T: Sendable>(endsRound: Bool = true, _ body: @Sendable (inout LocalStoreState) -> T) -> T {
    let (result, inSync) = state.withLock { s in
      let result = body(&s)
      guard endsRound, s.deliveredSinceSync else { return (result, false) }
      s.deliveredSinceSync = false
      return (result, true)
    }
    if inSync { notifySync() }
    return result
  }

  private func notifySync() {
    for listener in syncListeners.withLock({ $0.sorted { $0.key < $1.key }.map(\.value) }) { listener() }
  }

  /// The cache file's name in its directory: one per project and database.
  static func fileName(projectID: String, databaseID: String) -> String {
    let safe = { (s: String) in String(s.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "_" }) }
    return "firestore-\(safe(projectID))-\(safe(databaseID)).sqlite"
  }

  /// Whether documents are cached at all (not ``LocalCacheSettings/none``).
  var isCaching: Bool { state.withLock { $0.storage != nil } }

  /// How many batches of writes are not settled (pending, or acknowledged but not yet seen
  /// by every listener that shows them), for tests.
  var unsettledBatchCount: Int { state.withLock { $0.batches.count } }

  /// Whether a document is cached (not counting pending writes), for tests.
  func isCached(_ name: String) -> Bool { state.withLock { $0.cached(name) != nil } }

  /// The bytes of documents cached now.
  var cachedBytes: Int { state.withLock { $0.storage?.byteCount ?? 0 } }

  // MARK: - Reads

  /// The document as this client sees it (cache plus pending writes), and whether it has
  /// pending writes; `nil` when the cache knows nothing about it.
  func document(_ name: String) -> (document: Document?, pending: Bool)? {
    state.withLock { s in
      let local = s.localDocument(name)
      return local.known ? (local.document, local.pending) : nil
    }
  }

  /// The cached documents (plus pending writes) that match `query`, in its order.
  func query(_ query: ViewQuery) -> (documents: [Document], pending: Set<String>) {
    state.withLock { $0.localQuery(query) }
  }

  /// Documents read from the server (`nil`: found missing); the cache learns them.
  func didRead(_ documents: [(name: String, document: Document?)]) {
    mutate { s in
      s.store(documents)
      s.collectGarbage()
    }
  }

  /// The complete result of a server query: the cache learns the documents, and when the
  /// result is not cut by a limit or cursor (`isComplete`), cached documents that match
  /// `query` locally but were not returned are dropped as stale.
  func didRunQuery(_ query: ViewQuery, results: [Document], isComplete: Bool) {
    mutate { s in
      var updates = results.map { (name: $0.name, document: Optional($0)) }
      if isComplete {
        for name in s.staleMatches(query, returned: Set(results.map(\.name))) { updates.append((name, nil)) }
      }
      s.store(updates)
      s.collectGarbage()
    }
  }

  // MARK: - Bundles

  /// Loads a bundle's documents and named queries (see ``LocalStoreState/loadBundle(_:documents:queries:)``);
  /// `false` when a bundle with its ID and a create time as late was loaded before.
  func loadBundle(
    _ metadata: BundleMetadata, documents: [(name: String, document: Document?, readTime: Timestamp)], queries: [NamedQuery]
  ) -> Bool {
    state.withLock { $0.loadBundle(metadata, documents: documents, queries: queries) }
  }

  /// The named query a loaded bundle saved under `name`, or `nil`.
  func namedQuery(_ name: String) -> NamedQuery? {
    state.withLock { $0.namedQuery(name) }
  }

  // MARK: - Writes

  /// Queues `writes` (in the file with a persistent cache) and shows them to the listeners
  /// at once; returns the batch ID and what the pipeline must send now.
  func enqueue(_ writes: [Write], body: Data) -> (id: Int, actions: [MutationQueue.Action]) {
    mutate { $0.enqueue(writes, body: body, localWriteTime: .now()) }
  }

  /// The writes of batch `id` and their commit request body, or `nil` when it is no longer
  /// pending.
  func beginSend(_ id: Int) -> (writes: [Write], body: Data)? {
    state.withLock { $0.beginSend(id) }
  }

  /// Records how sending batch `id` ended; returns what to send next.
  func finishSend(_ id: Int, _ result: LocalStoreState.SendResult) -> [MutationQueue.Action] {
    mutate { $0.finishSend(id, result) }
  }

  /// The queue's backoff ended.
  func backOffElapsed() -> [MutationQueue.Action] {
    state.withLock { $0.queue.backOffElapsed() }
  }

  /// A request reached the server: a backoff of the queue is cut short.
  func serverReachable() -> [MutationQueue.Action] {
    state.withLock { $0.queue.serverReachable() }
  }

  /// Allows or stops sending queued batches.
  func setNetworkEnabled(_ enabled: Bool) -> [MutationQueue.Action] {
    state.withLock { $0.queue.setNetworkEnabled(enabled) }
  }

  /// What to send for the batches a previous run left queued; empty after the first call.
  func takeRestoredActions() -> [MutationQueue.Action] {
    state.withLock { s in
      defer { s.restoredActions = [] }
      return s.restoredActions
    }
  }

  /// The highest ID of the batches not yet settled, or `nil` when none is.
  var lastPendingBatchID: Int? { state.withLock { $0.lastPendingBatchID } }

  /// Whether every batch up to `id` is settled.
  func isSettled(upTo id: Int) -> Bool { state.withLock { $0.isSettled(upTo: id) } }

  /// How many batches are queued, for tests.
  var queuedBatchCount: Int { state.withLock { $0.queue.entries.count } }

  /// A transaction committed `writes` with `results`: the cache learns the outcome (a
  /// transaction's writes are not shown before they commit).
  func didCommit(_ writes: [Write], results: [WriteResult]) {
    guard let commitTime = results.first?.commitTime, results.count == writes.count else { return }
    var batch = MutationBatch(id: 0, writes: writes, localWriteTime: commitTime)
    batch.commitTime = commitTime
    batch.acknowledgements = results.map { .init(updateTime: $0.updateTime, transformResults: $0.transformResults) }
    let committed = batch
    mutate { $0.storeCommitted(committed) }
  }

  // MARK: - Listeners

  /// Registers a listener's view; it gets its first snapshot from the cache at once when
  /// the cache has something to show (or the listen stream is down, or it reads the cache
  /// only). Returns the view ID.
  func addView(
    _ query: ViewQuery, source: ListenSource = .default, includeMetadataChanges: Bool, emit: @escaping @Sendable (ViewSnapshot) -> Void
  ) -> Int {
    mutate { s in
      let id = s.nextViewID
      s.nextViewID += 1
      s.views[id] = QueryView(query: query, source: source, includeMetadataChanges: includeMetadataChanges, emit: emit)
      s.refresh(id)
      return id
    }
  }

  /// A server snapshot for view `id`; part of a round that ``endListenRound()`` closes.
  func applyWatch(_ id: Int, _ snapshot: WatchSnapshot) {
    mutate(endsRound: false) { $0.applyWatch(id, snapshot) }
  }

  /// The snapshots of one server message were all applied.
  func endListenRound() {
    mutate { _ in }
  }

  /// The listen stream went down: views show their data as from the cache.
  func listenConnectionLost() {
    mutate { $0.listenConnectionLost() }
  }

  /// Forgets view `id`.
  func removeView(_ id: Int) {
    state.withLock { s in
      s.views[id] = nil
      s.pruneBatches()
      s.collectGarbage()
    }
  }

  /// Adds a snapshots-in-sync listener; returns the ID to remove it with.
  func addSyncListener(_ listener: @escaping @Sendable () -> Void) -> Int {
    let id = nextSyncListenerID.withLock { id in
      id += 1
      return id
    }
    syncListeners.withLock { $0[id] = listener }
    return id
  }

  /// Removes a snapshots-in-sync listener.
  func removeSyncListener(_ id: Int) {
    syncListeners.withLock { $0[id] = nil }
  }
}
