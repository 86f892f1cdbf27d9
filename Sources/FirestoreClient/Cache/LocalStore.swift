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
/// What the cache learns from a read the caller already has is not stored on the caller's
/// path: it waits in a backlog that is applied, in order, before anything else reads the
/// state. Whoever looks sees what they would have seen had it been stored at once. While a
/// listener is open, and always for a persistent cache, a background task applies it a few
/// milliseconds later, so that listeners see the documents without anyone looking and the
/// file keeps up; otherwise a task applies it once a few dozen documents wait. An
/// acknowledged write's documents go through the backlog too, counted as a read's are
/// (with a listener open their task starts at once; a persistent cache applies them at
/// once): until they are applied the batch counts as pending, and a read that meets a
/// pending batch applies the backlog first. A change that reads no cached document (a write
/// queued without increments, a send begun or acknowledged) goes ahead of the backlog while
/// no listener is open and the cache is in memory: nothing it does depends on the backlog,
/// and nobody sees the state before the next look applies it. Any other change applies the
/// backlog first, so that listeners and the file see one order.
///
/// The queue of writes (``MutationQueue``) lives here too, so that a write is queued and
/// shown in one step; ``WritePipeline`` does the sending.
final class LocalStore: Sendable {
  private let state: Locked<LocalStoreState>
  /// Updates waiting to be applied to the state (see the type's documentation).
  private struct Backlog {
    var updates: [@Sendable (inout LocalStoreState) -> Void] = []
    /// The documents the waiting updates carry.
    var documents = 0
    /// A task to apply them is on its way.
    var drainScheduled = false
    /// The state has views (listeners), which want the updates soon.
    var watched = false
  }
  private let backlog = Locked(Backlog())
  /// The task that applies the backlog, once started (for tests).
  private let drainTask = Locked<Task<Void, Never>?>(nil)
  /// The snapshots-in-sync listeners, called after a round of snapshots was delivered.
  private let syncListeners = Locked<[Int: @Sendable () -> Void]>([:])
  private let nextSyncListenerID = Locked(0)
  /// Called, outside the lock, when the set of limbo documents changed (see ``limboNames``).
  private let limboObserver = Locked<(@Sendable () -> Void)?>(nil)
  /// The state's ``LocalStoreState/user``, set under the state's lock wherever that
  /// changes: every call and every write first says whose token it carries, almost never a
  /// new user, and that check need not take the state's lock (nor apply the backlog).
  private let stateUser: Locked<TokenUser?>
  /// Whether the state holds a batch the server has not acknowledged, set under the state's
  /// lock wherever that changes. A read whose answer no pending write can change (nearly
  /// every read) learns it here, without waiting for the state's lock or applying the
  /// backlog (the cache learning what the read itself just returned) on the caller's path.
  /// The backlog only ever acknowledges batches, so `false` here stays true after it.
  private let stateHasUnacknowledgedBatches: Locked<Bool>
  /// This store's name as the holder of queued batches (see ``CacheOwner``).
  let owner: String
  /// The SQLite file of a persistent cache.
  let filePath: String?

  /// Opens the cache `settings` describe for the database whose documents live under
  /// `documentsRoot`, with the write batches a previous run left queued in a persistent
  /// file; problems with the file are reported through `log`.
  init(
    settings: LocalCacheSettings, projectID: String, databaseID: String, documentsRoot: String, user: TokenUser? = nil,
    log: @escaping @Sendable (String) -> Void
  ) {
    var filePath: String?
    if case .persistent(let directory, _) = settings {
      filePath = directory.appendingPathComponent(Self.fileName(projectID: projectID, databaseID: databaseID)).path
    }
    self.filePath = filePath
    owner = CacheOwner.make()
    stateUser = Locked(user)
    let initial = LocalStoreState(settings: settings, filePath: filePath, documentsRoot: documentsRoot, owner: owner, user: user, log: log)
    // A persistent cache may hold batches a previous run left queued.
    stateHasUnacknowledgedBatches = Locked(initial.batches.contains { !$0.isAcknowledged })
    state = Locked(initial)
  }

  deinit { CacheOwner.close(owner) }

  /// Closes the storage (``Firestore/terminate()``); queued batches stay in the file for the
  /// next instance.
  func close() {
    withState { s in
      s.storage?.close()
      s.storage = nil
    }
    CacheOwner.close(owner)
  }

  /// Runs `body` on the state under the lock, after the backlog; then, when a view
  /// delivered a snapshot and the round is over, calls the snapshots-in-sync listeners. When
  /// the state gains its first view while updates wait, a task is started to apply them.
  ///
  /// - Parameter readsCache: `false` for a `body` that reads no cached document: while no
  ///   view is open it runs without the backlog applied first (see the type's
  ///   documentation), except on a persistent cache, whose file keeps their order.
  private func withState<T: Sendable>(
    endsRound: Bool = true, readsCache: Bool = true, _ body: @Sendable (inout LocalStoreState) -> T
  ) -> T {
    var drainsBacklog = false
    let (result, inSync, limboChanged) = state.withLock { s in
      if readsCache || !s.views.isEmpty || filePath != nil {
        let waiting = backlog.withLock { b in
          defer {
            b.updates.removeAll()
            b.documents = 0
          }
          return b.updates
        }
        for update in waiting { update(&s) }
      }
      let result = body(&s)
      let unacknowledged = s.batches.contains { !$0.isAcknowledged }
      stateHasUnacknowledgedBatches.withLock { $0 = unacknowledged }
      // An update that came while the first view was added found the state unwatched.
      let watched = !s.views.isEmpty
      drainsBacklog = backlog.withLock { b in
        defer { b.watched = watched }
        guard watched, !b.watched, !b.updates.isEmpty, !b.drainScheduled else { return false }
        b.drainScheduled = true
        return true
      }
      let limboChanged = s.limboNamesChanged
      s.limboNamesChanged = false
      guard endsRound, s.deliveredSinceSync else { return (result, false, limboChanged) }
      s.deliveredSinceSync = false
      return (result, true, limboChanged)
    }
    if drainsBacklog { drainBacklog(after: Self.backlogDelay) }
    if limboChanged { limboObserver.withLock { $0 }?() }
    if inSync { notifySync() }
    return result
  }

  /// Applies the backlog now: what this store holds is then in the file too, for other
  /// instances sharing it (tests look through a second instance).
  func flush() {
    withState { _ in }
  }

  /// Has the acknowledgement of `acknowledgedDocuments` documents that waits in the
  /// backlog applied when it is due, for a caller that must not wait for it: with a listener
  /// open, at once in a task of its own; otherwise as reads' documents are, once enough wait
  /// or at the next look. A persistent cache applies it now, so that the file, which other
  /// instances read, shows what this one does.
  func applyWhenDue(acknowledgedDocuments: Int) {
    guard filePath == nil else { return flush() }
    scheduleDrain(documents: acknowledgedDocuments, delaysWatched: false)
  }

  /// How long the backlog may wait for its background task while a listener is open, or
  /// for a persistent cache: reads a few round trips apart share one task (a task per read,
  /// woken while the caller reads on, costs the read more than the cache learning itself),
  /// and a persistent cache one transaction.
  static let backlogDelay: Duration = .milliseconds(5)

  /// How many documents may wait for the next look at a memory cache while no listener is
  /// open: then a task applies them at once. Reads that nobody watches cost no timer, single
  /// reads one task per this many, and what waits stays small.
  static let unwatchedBacklogDocuments = 64

  /// Queues `update`, which carries `documents` documents, for the backlog, and a task that
  /// applies it (see the type's documentation) unless someone else's access does first. One
  /// task at a time: an access that empties the backlog leaves the task on its way, which
  /// the next update then rides.
  private func later(documents: Int, _ update: @escaping @Sendable (inout LocalStoreState) -> Void) {
    backlog.withLock { $0.updates.append(update) }
    scheduleDrain(documents: documents, delaysWatched: true)
  }

  /// Counts `documents` more documents in the backlog and starts the task that applies it
  /// once they are due: while a listener is open or the cache is persistent (after
  /// ``backlogDelay`` when `delaysWatched`), otherwise once ``unwatchedBacklogDocuments``
  /// wait. One task at a time.
  private func scheduleDrain(documents: Int, delaysWatched: Bool) {
    let timed = filePath != nil
    let schedule = backlog.withLock { b -> (now: Bool, delay: Bool) in
      b.documents += max(1, documents)
      let due = b.watched || timed || b.documents >= Self.unwatchedBacklogDocuments
      guard due, !b.updates.isEmpty, !b.drainScheduled else { return (false, false) }
      b.drainScheduled = true
      return (true, delaysWatched && (b.watched || timed))
    }
    guard schedule.now else { return }
    drainBacklog(after: schedule.delay ? Self.backlogDelay : nil)
  }

  /// Applies the backlog in a task of its own, after `delay`.
  private func drainBacklog(after delay: Duration?) {
    let task = Task.detached(priority: .utility) { [weak self] in
      if let delay { try? await Task.sleep(for: delay) }
      guard let self else { return }
      // Cleared before the backlog is taken, so that an update queued after that gets a task.
      self.backlog.withLock { $0.drainScheduled = false }
      self.withState { _ in }
    }
    drainTask.withLock { $0 = task }
  }

  /// How many updates wait in the backlog, and whether a task to apply them is on its way
  /// (for tests).
  var backlogState: (waiting: Int, drainScheduled: Bool) {
    backlog.withLock { ($0.updates.count, $0.drainScheduled) }
  }

  /// The task that applies the backlog, once one started (for tests, which await it).
  var backlogDrain: Task<Void, Never>? { drainTask.withLock { $0 } }

  /// Queues `update` for the backlog without a task of its own: for a caller that applies
  /// the backlog itself soon after (``flush()``).
  private func postpone(_ update: @escaping @Sendable (inout LocalStoreState) -> Void) {
    backlog.withLock { $0.updates.append(update) }
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
  var isCaching: Bool { withState { $0.storage != nil } }

  /// How many batches of writes are not settled (pending, or acknowledged but not yet seen
  /// by every listener that shows them), for tests.
  var unsettledBatchCount: Int { withState { $0.batches.count } }

  /// Whether a document is cached (not counting pending writes), for tests.
  func isCached(_ name: String) -> Bool { withState { $0.cached(name) != nil } }

  /// The bytes of documents cached now.
  var cachedBytes: Int { withState { $0.storage?.byteCount ?? 0 } }

  // MARK: - Reads

  /// The document as this client sees it (cache plus pending writes), and whether it has
  /// pending writes; `nil` when the cache knows nothing about it.
  func document(_ name: String) -> (document: Document?, pending: Bool)? {
    withState { s in
      let local = s.localDocument(name)
      return local.known ? (local.document, local.pending) : nil
    }
  }

  /// The cached documents (plus pending writes) that match `query`, in its order.
  func query(_ query: ViewQuery) -> (documents: [Document], pending: Set<String>) {
    withState { $0.localQuery(query) }
  }

  /// A server's answer to `query` as this client shows it: with its pending writes applied
  /// (latency compensation, as every read of the Apple SDK has it), matched, ordered and
  /// limited again; also the names shown with pending writes. `nil` when no pending write
  /// touches the query: the answer stands as it is.
  func withPendingWrites(
    _ makeQuery: @autoclosure () -> ViewQuery, serverResults makeResults: @autoclosure () -> [Document]
  ) -> (documents: [Document], pending: Set<String>)? {
    // The query and the results are made only when a write waits: most reads have none.
    guard stateHasUnacknowledgedBatches.value else { return nil }
    let query = makeQuery()
    let serverResults = makeResults()
    return withState { s in
      let touches = s.batches.indices.contains { b in
        !s.batches[b].isAcknowledged
          && s.batches[b].writes.contains { s.path(of: $0.documentName).map(query.covers(path:)) == true }
      }
      guard touches else { return nil }
      let base = Dictionary(serverResults.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
      return s.overlay(query, on: base, lookingUpOthers: true) { batch, _ in !batch.isAcknowledged }
    }
  }

  /// Documents read from the server (`nil`: found missing); the cache learns them.
  /// - Parameter readTime: when the server found the missing ones missing, if it said.
  func didRead(_ documents: [(name: String, document: Document?)], readTime: Timestamp? = nil) {
    later(documents: documents.count) { s in
      s.store(documents, removedAsOf: readTime)
      for (name, _) in documents { s.noteAnswered(documentNamed: name) }
      s.collectGarbage()
    }
  }

  /// The complete result of a server query: the cache learns the documents, and when the
  /// result is not cut by a limit or cursor (`isComplete`), cached documents that match
  /// `query` locally but were not returned are dropped as stale, unless cached from after
  /// `readTime`, the result's.
  func didRunQuery(_ query: ViewQuery, results: [Document], isComplete: Bool, readTime: Timestamp? = nil) {
    later(documents: results.count) { s in
      let updates = results.map { (name: $0.name, document: Optional($0)) }
      let stale = isComplete ? s.staleMatches(query, returned: Set(results.map(\.name))) : []
      s.store(updates, forgetting: stale, removedAsOf: readTime)
      s.noteAnswered(query)
      s.collectGarbage()
    }
  }

  // MARK: - Field indexes

  /// Turns the creation of field indexes by queries on the cache on or off (see
  /// ``PersistentCacheIndexManager``); indexes already created stay in use either way.
  func setIndexAutoCreation(_ enabled: Bool) {
    withState { $0.indexAutoCreation = enabled }
  }

  /// Removes every field index from the cache.
  func deleteAllFieldIndexes() {
    withState { $0.deleteAllFieldIndexes() }
  }

  /// The cache's field indexes, for tests.
  var fieldIndexes: [FieldIndex] { withState { $0.fieldIndexes() } }

  /// Adds a field index as auto creation does, for tests; `nil` when it was there already.
  func addFieldIndex(_ index: FieldIndex) -> FieldIndex? {
    withState { s in s.withStorage(nil) { storage throws(CacheStorageError) in try storage.addFieldIndex(index) } }
  }

  /// How many documents queries on the cache have read from the storage, for tests.
  var documentsReadByQueries: Int { withState { $0.documentsReadByQueries } }

  // MARK: - Bundles

  /// Loads a bundle's documents and named queries (see ``LocalStoreState/loadBundle(_:documents:queries:)``);
  /// `false` when a bundle with its ID and a create time as late was loaded before.
  func loadBundle(
    _ metadata: BundleMetadata, documents: [(name: String, document: Document?, readTime: Timestamp)], queries: [NamedQuery]
  ) -> Bool {
    withState { $0.loadBundle(metadata, documents: documents, queries: queries) }
  }

  /// Whether a bundle with this one's ID, read as late, was loaded before (loading it again
  /// applies nothing).
  func hasLoadedBundle(_ metadata: BundleMetadata) -> Bool {
    withState { $0.hasLoadedBundle(metadata) }
  }

  /// The named query a loaded bundle saved under `name`, or `nil`.
  func namedQuery(_ name: String) -> NamedQuery? {
    withState { $0.namedQuery(name) }
  }

  // MARK: - Writes

  /// Queues `writes` (in the file with a persistent cache) and shows them to the listeners
  /// at once; returns the batch ID and what the pipeline must send now.
  /// - Parameter user: who is signed in now, when the token provider knows; the batch is
  ///   that user's.
  func enqueue(_ writes: [Write], body: Data, user: TokenUser?) -> (id: Int, actions: [MutationQueue.Action]) {
    // Increments start from the documents as shown
    // (``LocalStoreState/incrementBases(of:localWriteTime:)``), and a new user's turn sorts
    // the batches by whether the server has them, which waiting acknowledgements change.
    let switching = user.map { user in stateUser.withLock { $0 != user } } ?? false
    return withState(readsCache: switching || writes.contains(where: WriteBuilder.increments)) { s in
      let switched = user.map { s.switchUser(to: $0) } ?? []
      stateUser.withLock { $0 = s.user }
      let (id, actions) = s.enqueue(writes, body: body, localWriteTime: .now())
      return (id, switched + actions)
    }
  }

  /// The writes of batch `id`, their commit request body and the user whose token must
  /// carry them (`nil`: not known yet), or `nil` when it is no longer pending here.
  func beginSend(_ id: Int) -> (writes: [Write], body: Data, user: TokenUser?)? {
    withState(readsCache: false) { $0.beginSend(id) }
  }

  /// The token provider's tokens stand for `user`: other users' batches wait, this user's
  /// are shown and sent. Returns whether the user changed, and what to send now.
  func switchUser(to user: TokenUser) -> (changed: Bool, actions: [MutationQueue.Action]) {
    // A switch under way on another thread may not show here yet: this call then counts as
    // made before it, which it may as well have been.
    if stateUser.withLock({ $0 == user }) { return (false, []) }
    return withState { s in
      let changed = s.user != user
      let actions = s.switchUser(to: user)
      stateUser.withLock { $0 = s.user }
      return (changed, actions)
    }
  }

  /// Whether batches are waiting for a user to be known (see ``switchUser(to:)``).
  var awaitsUser: Bool { withState { $0.user == nil && !$0.parked.isEmpty } }

  /// Records how sending batch `id` ended; returns what to send next. The caller calls
  /// ``flush()`` or ``applyWhenDue(acknowledgedDocuments:)`` once it has answered whoever waits for the
  /// batch.
  func finishSend(_ id: Int, _ result: LocalStoreState.SendResult) -> [MutationQueue.Action] {
    let rejected = if case .rejected = result { true } else { false }
    // A rejected batch's documents are shown again as the cache holds them.
    return withState(readsCache: rejected) { s in
      // An acknowledged batch leaves the file before the caller is answered, so that it is
      // never sent again; the cache learns its documents from the backlog, queued in the
      // same step so that nobody sees one without the other. The sender has it applied
      // once it has answered, so it needs no task of its own here.
      if case .acknowledged(let results) = result { postpone { $0.acknowledgeBatch(id, results: results) } }
      return s.finishSend(id, result)
    }
  }

  /// The queue's backoff ended.
  func backOffElapsed() -> [MutationQueue.Action] {
    withState { $0.queue.backOffElapsed() }
  }

  /// A request reached the server: a backoff of the queue is cut short.
  func serverReachable() -> [MutationQueue.Action] {
    withState { $0.queue.serverReachable() }
  }

  /// Allows or stops sending queued batches.
  func setNetworkEnabled(_ enabled: Bool) -> [MutationQueue.Action] {
    withState { $0.queue.setNetworkEnabled(enabled) }
  }

  /// What to send for the batches a previous run left queued; empty after the first call.
  func takeRestoredActions() -> [MutationQueue.Action] {
    withState { s in
      defer { s.restoredActions = [] }
      return s.restoredActions
    }
  }

  /// The highest ID of the batches not yet settled, or `nil` when none is.
  var lastPendingBatchID: Int? { withState { $0.lastPendingBatchID } }

  /// An ID below which every batch is settled, and stays so (see
  /// ``LocalStoreState/settledBelow``).
  var settledBelow: Int { withState { $0.settledBelow } }

  /// How many batches are queued, for tests.
  var queuedBatchCount: Int { withState { $0.queue.entries.count } }

  // MARK: - Listeners

  /// Registers a listener's view; it gets its first snapshot from the cache at once when
  /// the cache has something to show (or the listen stream is down, or it reads the cache
  /// only). Returns the view ID.
  func addView(
    _ query: ViewQuery, source: ListenSource = .default, includeMetadataChanges: Bool, emit: @escaping @Sendable (ViewSnapshot) -> Void
  ) -> Int {
    withState { s in
      let id = s.nextViewID
      s.nextViewID += 1
      s.views[id] = QueryView(query: query, source: source, includeMetadataChanges: includeMetadataChanges, emit: emit)
      s.refresh(id)
      return id
    }
  }

  /// A server snapshot for view `id`; part of a round that ``endListenRound()`` closes.
  func applyWatch(_ id: Int, _ snapshot: WatchSnapshot) {
    withState(endsRound: false) { $0.applyWatch(id, snapshot) }
  }

  /// The documents that some listener's view holds in limbo (``QueryView/limbo``: shown,
  /// but missing from its server results without the server having removed them): each
  /// needs a listen of its own, whose snapshots go to ``resolveLimbo(_:_:)``.
  var limboNames: Set<String> { withState(endsRound: false) { $0.limboNames } }

  /// Sets what is called (outside the lock, on the thread that changed it) when
  /// ``limboNames`` changes.
  func observeLimbo(_ observer: @escaping @Sendable () -> Void) {
    limboObserver.withLock { $0 = observer }
  }

  /// What the listen to limbo document `name` says (`nil`: it does not exist) as of
  /// `readTime` (`nil`: unknown); part of a round that ``endListenRound()`` closes.
  func resolveLimbo(_ name: String, _ document: Document?, readTime: Timestamp? = nil) {
    withState(endsRound: false) { $0.resolveLimbo(name, document, readTime: readTime) }
  }

  /// The snapshots of one server message were all applied.
  func endListenRound() {
    withState { _ in }
  }

  /// The cached server versions of the documents named in `versions`, or `nil` when the
  /// cache lacks any of them or holds one updated before its time there (a listen resumes
  /// only from the whole set it held, at least as new as it held it).
  func cachedDocuments(atLeast versions: [String: Timestamp]) -> [Document]? {
    withState { s in
      var documents: [Document] = []
      documents.reserveCapacity(versions.count)
      for (name, version) in versions {
        guard let document = s.cached(name), let time = document.updateTime, time >= version else { return nil }
        documents.append(document)
      }
      return documents
    }
  }

  /// View `id`'s target runs again from scratch (the server's count showed documents it
  /// does not know of): it shows its data as from the cache until the target is in sync,
  /// as the Apple SDK marks a target whose existence filter did not match.
  func viewOutOfSync(_ id: Int) {
    withState { $0.markOutOfSync(id) }
  }

  /// The listen stream went down: views show their data as from the cache.
  func listenConnectionLost() {
    withState { $0.listenConnectionLost() }
  }

  /// Whether the listen stream can reach the server is unknown again (the network was
  /// enabled, or the last server listener went with it enabled): a new listener waits for
  /// the server, as the Apple SDK's online state returns to unknown, instead of starting
  /// offline from the cache. Views already stale stay so until their targets are in sync.
  func listenReachabilityUnknown() {
    withState { $0.isListenOffline = false }
  }

  /// Forgets view `id`.
  func removeView(_ id: Int) {
    withState { s in
      s.views[id] = nil
      s.noteLimboNames()
      s.trimUnconfirmed()
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
