import FirestoreEngine
import FirestoreWire
import Foundation

/// The mutable state behind ``LocalStore``, always used under its lock: the cache storage,
/// the batches of writes not yet settled and the queue that sends them, and the listeners'
/// views.
struct LocalStoreState {
  /// How to (re)open the storage.
  let settings: LocalCacheSettings
  /// The SQLite file for a persistent cache.
  let filePath: String?
  /// `projects/{p}/databases/{d}/documents`.
  let documentsRoot: String
  let log: @Sendable (String) -> Void
  /// This store's name as the holder of queued batches in a shared file (see ``CacheOwner``).
  let owner: String

  /// `nil` for ``LocalCacheSettings/none``.
  var storage: (any CacheStorage)?
  /// The batches listeners show, in ID order: queued (pending), then acknowledged until
  /// every view's listen has caught up with them.
  var batches: [MutationBatch] = []
  /// The IDs of acknowledged batches still in ``batches``, so that pruning does not look
  /// through every pending batch for them (a long offline queue drains one acknowledgement
  /// at a time). An ID whose batch is gone is dropped when next looked at.
  var acknowledgedBatchIDs: [Int] = []
  /// The order in which the pending batches go to the server.
  var queue = MutationQueue()
  /// Who the token provider's tokens stand for now, or `nil` until that is known: only
  /// this user's batches are in ``batches`` and the queue.
  var user: TokenUser?
  /// Pending batches of other users, in ID order: neither shown nor sent until their user
  /// is signed in again.
  var parked: [MutationBatch] = []
  var nextBatchID = 1
  var views: [Int: QueryView] = [:]
  /// Documents whose cached version came from this client's acknowledged write and that a
  /// view reading the cache showed pending: they stay pending there until the server's own
  /// word on them reaches the cache (the Apple SDK's documents with committed mutations).
  /// Only names such a view shows pending are kept.
  var committedUnconfirmed: Set<String> = []
  /// The queries the server answered, whose results the cache holds.
  var answeredQueries = AnsweredQueries()
  var nextViewID = 1
  /// Whether the listen stream is down (or the network disabled): a new listener then gets
  /// a first snapshot from the cache even when it is empty, as in the Apple SDK.
  var isListenOffline = false
  /// Whether a view delivered a snapshot since the last snapshots-in-sync event.
  var deliveredSinceSync = false
  /// The documents in some view's ``QueryView/limbo``: each is listened to alone.
  var limboNames: Set<String> = []
  /// Whether ``limboNames`` changed since the store's owner last looked.
  var limboNamesChanged = false
  /// What to send for the batches restored from the file, until the store's owner takes it.
  var restoredActions: [MutationQueue.Action] = []
  /// Whether a transient storage failure was reported (they are reported once).
  var loggedTransientFailure = false
  /// Whether a query on the cache that scanned far more documents than it matched creates
  /// a field index for itself (``PersistentCacheIndexManager``); this instance's choice, not
  /// the file's.
  var indexAutoCreation = false
  /// How many documents queries on the cache have read from the storage, for tests.
  var documentsReadByQueries = 0

  init(
    settings: LocalCacheSettings, filePath: String?, documentsRoot: String, owner: String, user: TokenUser?,
    log: @escaping @Sendable (String) -> Void
  ) {
    self.user = user
    self.settings = settings
    self.filePath = filePath
    self.documentsRoot = documentsRoot
    self.owner = owner
    self.log = log
    storage = openStorage()
    restoreQueuedBatches()
  }

  /// Whether documents nothing shows are dropped at once (``LocalCacheSettings/eagerMemory``).
  var isEager: Bool { settings == .eagerMemory }

  // MARK: - Storage

  /// Opens the configured storage. A persistent file that fails to open or verify is
  /// reported once and rebuilt; if even that fails, the cache lives in memory.
  private func openStorage() -> (any CacheStorage)? {
    switch settings {
    case .none:
      return nil
    case .memory, .eagerMemory:
      return MemoryCacheStorage(sizeLimit: settings.sizeLimit)
    case .persistent(let directory, _):
      let size = settings.sizeLimit
      guard let filePath else { return MemoryCacheStorage(sizeLimit: size) }
      do {
        try CacheFileAccess.prepareDirectory(directory)
      } catch {
        log("Firestore local cache: \(error); using a memory cache instead")
        return MemoryCacheStorage(sizeLimit: size)
      }
      do {
        return try SQLiteCacheStorage(path: filePath, sizeLimit: size)
      } catch  where !error.isCorruption {
        log("Firestore local cache: \(error); using a memory cache instead")
        return MemoryCacheStorage(sizeLimit: size)
      } catch {
        log("Firestore local cache: \(error); discarding the file and rebuilding an empty cache")
      }
      SQLiteCacheStorage.remove(path: filePath)
      do {
        return try SQLiteCacheStorage(path: filePath, sizeLimit: size)
      } catch {
        log("Firestore local cache: cannot rebuild \(filePath) (\(error)); using a memory cache instead")
        return MemoryCacheStorage(sizeLimit: size)
      }
    }
  }

  /// Runs `body` on the storage and returns `fallback` when it fails (nothing cached is
  /// always a safe answer). Damaged data is logged and the cache rebuilt empty; a
  /// transient failure is logged the first time only.
  mutating func withStorage<T>(_ fallback: T, _ body: (any CacheStorage) throws(CacheStorageError) -> T) -> T {
    guard let storage else { return fallback }
    do {
      return try body(storage)
    } catch  where !error.isCorruption {
      if !loggedTransientFailure {
        loggedTransientFailure = true
        log("Firestore local cache: \(error); the cache is skipped while this lasts")
      }
      return fallback
    } catch {
      log("Firestore local cache: \(error); discarding the cache and rebuilding it empty")
      // Closed now, not when `storage` above lets go of it: the files are replaced next, and a
      // connection closed after that may remove the new file's WAL by name (SQLite versions
      // without a check for a moved file do).
      storage.close()
      self.storage = nil
      if let filePath { SQLiteCacheStorage.remove(path: filePath) }
      self.storage = openStorage()
      persistPendingBatches()
      return fallback
    }
  }

  /// The path below the database root of a document's resource name, or `nil` for a name
  /// outside this database.
  func path(of name: String) -> String? {
    name.pathBelow(documentsRoot)
  }

  /// The cached server version of a document.
  mutating func cached(_ name: String) -> Document? {
    cachedEntry(name)?.document
  }

  /// What the cache holds of a document: the server's version, or the word that there is
  /// none; `nil` when it knows nothing.
  mutating func cachedEntry(_ name: String) -> CacheEntry? {
    guard let path = path(of: name) else { return nil }
    return withStorage(nil) { storage throws(CacheStorageError) in try storage.entry(at: path) }
  }

  /// Stores what the server said of documents: their versions, or (`nil`) that they do not
  /// exist, which the cache keeps as missing entries, so that a read from the cache answers
  /// "no such document" as the Apple SDK's does; `forgetting` lets go of what the cache
  /// held of documents whose state it can no longer tell. A newer cached version stays over
  /// a stale delivery; listeners that read the cache only see the change.
  ///
  /// - Parameter removedAsOf: when the server found the `nil` ones gone (the read time of a
  ///   read, the commit time of a delete), or, for `forgetting`, when the server's word
  ///   came: a cached version updated after that time stays, as the Apple SDK keeps a
  ///   remote document whose version is past an acknowledgement's. `nil` when unknown:
  ///   they go in any case.
  /// - Parameter committed: whether the versions come from this client's acknowledged
  ///   writes rather than from the server's reads and listens (which confirm them).
  /// - Returns: the names of `documents` whose cached version is newer than what was said
  ///   of them, and stayed.
  @discardableResult
  mutating func store(
    _ documents: [(name: String, document: Document?)], forgetting: [String] = [], removedAsOf: Timestamp? = nil,
    committed fromCommit: Bool = false
  ) -> Set<String> {
    guard storage != nil, !documents.isEmpty || !forgetting.isEmpty else { return [] }
    // The word that a document is missing is kept only when nothing this client knows is
    // newer: not over a commit of this client still tracked from after it (the cache may
    // have let that outcome go, unknown), and, with no time said, not over a version held.
    let commits = documents.contains { $0.document == nil } ? commitTimes() : [:]
    var all: [(name: String, entry: CacheEntry?)] = []
    all.reserveCapacity(documents.count + forgetting.count)
    for (name, document) in documents {
      if let document {
        all.append((name, .document(document)))
      } else if let commit = commits[name], removedAsOf.map({ $0 < commit }) ?? true {
        all.append((name, nil))
      } else {
        all.append((name, .missing(removedAsOf)))
      }
    }
    for name in forgetting { all.append((name, nil)) }
    let paths = all.map { path(of: $0.name) }
    let pins = Pins(views: views, batches: batches, documentsRoot: documentsRoot)
    let unconfirmed = fromCommit ? [] : committedUnconfirmed
    let (stored, confirmed, outdated) = withStorage((false, [String](), Set<String>())) { storage throws(CacheStorageError) in
      var changes: [(path: String, entry: CacheEntry?)] = []
      var confirmed: [String] = []
      var outdated = Set<String>()
      for (index, ((name, entry), path)) in zip(all, paths).enumerated() {
        guard let path else { continue }
        // A cached version updated after the time of the server's word was learned later.
        let time = entry.map(\.version) ?? removedAsOf
        if let time, let held = try storage.version(at: path), held > time {
          if index < documents.count { outdated.insert(name) }
          continue
        }
        if unconfirmed.contains(name) { confirmed.append(name) }
        if case .missing(nil)? = entry, try storage.document(at: path) != nil {
          changes.append((path, nil))
          continue
        }
        changes.append((path, entry))
      }
      var pinned: Set<String>?
      try storage.apply(changes) { path in
        if pinned == nil { pinned = pins.paths() }
        return pinned!.contains(path)
      }
      return (!changes.isEmpty, confirmed, outdated)
    }
    committedUnconfirmed.subtract(confirmed)
    if stored, !views.isEmpty { refreshCacheViews(showing: Set(all.map(\.name))) }
    if !confirmed.isEmpty { refreshViewsAwaitingServer(settling: Set(confirmed)) }
    return outdated
  }

  /// The server's versions of `settled`, which views reading the cache held pending,
  /// reached the cache: a view that waits for its first server snapshot shows them settled
  /// too (a listener of the cache only was refreshed with the store).
  private mutating func refreshViewsAwaitingServer(settling settled: Set<String>) {
    for id in views.keys.sorted() {
      guard let view = views[id], view.source == .default, view.server == nil,
        view.delivered?.pendingNames.isDisjoint(with: settled) == false
      else { continue }
      refresh(id)
    }
  }

  /// The latest commit time of this client's acknowledged batches still tracked, by
  /// document name.
  private func commitTimes() -> [String: Timestamp] {
    var times: [String: Timestamp] = [:]
    for batch in batches {
      guard let commit = batch.commitTime else { continue }
      for name in batch.documentNames where times[name].map({ $0 < commit }) ?? true { times[name] = commit }
    }
    return times
  }

  /// The documents eviction must keep: those active listeners show and those with writes
  /// not yet settled. Computed from copies, only when eviction runs.
  struct Pins {
    let views: [Int: QueryView]
    let batches: [MutationBatch]
    let documentsRoot: String

    func paths() -> Set<String> {
      var names = Set<String>()
      for view in views.values {
        if let server = view.server { names.formUnion(server.keys) }
        if let delivered = view.delivered { names.formUnion(delivered.documents.map(\.name)) }
      }
      for batch in batches { names.formUnion(batch.documentNames) }
      let prefix = documentsRoot + "/"
      return Set(names.compactMap { $0.removingBytePrefix(prefix) })
    }
  }

  /// With eager garbage collection, drops every cached document nothing pins.
  mutating func collectGarbage() {
    guard isEager, let memory = storage as? MemoryCacheStorage else { return }
    let pinned = Pins(views: views, batches: batches, documentsRoot: documentsRoot).paths()
    let unpinned = memory.paths.filter { !pinned.contains($0) }
    if !unpinned.isEmpty { memory.apply(unpinned.map { ($0, nil) }) { _ in false } }
  }

  // MARK: - Local documents

  /// The document as this client sees it: cached server version (or `serverVersion`, when
  /// the cache has none) with pending writes applied. `known` is `false` when neither the
  /// server version nor a write says anything about it.
  mutating func localDocument(_ name: String, serverVersion: Document? = nil) -> (document: Document?, known: Bool, pending: Bool) {
    let entry = cachedEntry(name)
    var document = entry?.document ?? serverVersion
    var known = entry != nil || document != nil
    var pending = false
    for batch in batches where !batch.isAcknowledged {
      for (i, write) in batch.writes.enumerated() where write.documentName == name {
        document = batch.apply(i, to: document)
        // A write that makes the document whatever the server holds (a set, a delete, a
        // merge over nothing) tells what this client will see.
        known = known || LocalWriteApplier.isBlind(write) || document != nil
        pending = true
      }
    }
    return (document, known, pending && document != nil)
  }

  /// The cached documents of a query's collection(s) with pending writes applied, matched,
  /// ordered and limited locally; also the names shown with pending writes.
  ///
  /// A field index that serves the query narrows the cached documents read to a superset
  /// of its matches; the query then runs over them exactly as over a scan, so the result
  /// is the same. A scan may create an index (``considerIndex(for:scanned:results:)``).
  mutating func localQuery(_ query: ViewQuery) -> (documents: [Document], pending: Set<String>) {
    let cached: [Document]
    let indexed: Bool
    switch query {
    case .document(let name, _):
      let (document, _, pending) = localDocument(name)
      return (document.map { [$0] } ?? [], pending ? [name] : [])
    case .query(let structured, let parent, let collectionID, let allDescendants):
      (cached, indexed) = withStorage(([], false)) { storage throws(CacheStorageError) in
        let scope = (parent: parent, collectionID: collectionID, allDescendants: allDescendants)
        if let found = try storage.indexedDocuments(structured, parent: scope.0, collectionID: scope.1, allDescendants: scope.2) {
          return (found, true)
        }
        return (try storage.documents(parent: scope.0, collectionID: scope.1, allDescendants: scope.2), false)
      }
    }
    documentsReadByQueries += cached.count
    let current = Dictionary(cached.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
    // Acknowledged writes are in the cache already. The documents an index left out did
    // not match before the pending writes; a write may make them match, so those are read.
    let result = overlay(query, on: current, lookingUpOthers: indexed) { batch, _ in !batch.isAcknowledged }
    if !indexed { considerIndex(for: query, scanned: cached, results: result.documents) }
    return result
  }

  /// `base` (documents by name) with the writes `applies` selects applied in order, then
  /// matched, ordered and limited as `query` says; also the names shown with such writes
  /// of the batches that `pending` counts as pending.
  ///
  /// - Parameter lookingUpOthers: whether a written document missing from `base` is read
  ///   from the cache (`base` is a server result, which lacks documents that did not match).
  mutating func overlay(
    _ query: ViewQuery, on base: [String: Document], lookingUpOthers: Bool, applies: (MutationBatch, Int) -> Bool,
    pending: (MutationBatch) -> Bool = { _ in true }
  ) -> (documents: [Document], pending: Set<String>) {
    var current = base
    var touched = Set<String>()
    var unsettled = Set<String>()
    for batch in batches {
      for (i, write) in batch.writes.enumerated() where applies(batch, i) {
        let name = write.documentName
        guard let path = path(of: name), query.covers(path: path) else { continue }
        let before = current[name] ?? (lookingUpOthers && !touched.contains(name) ? cached(name) : nil)
        current[name] = batch.apply(i, to: before)
        touched.insert(name)
        if pending(batch) { unsettled.insert(name) }
      }
    }
    let results: [Document]
    switch query {
    case .document(let name, _): results = current[name].map { [$0] } ?? []
    case .query(let structured, _, _, _): results = QueryEvaluator.evaluate(structured, over: Array(current.values))
    }
    return (results, unsettled.intersection(results.map(\.name)))
  }

  /// Cached documents that match `query` locally but are missing from `returned`, a
  /// complete server answer to it: their cached versions are stale. Documents with writes
  /// in flight are left alone, as those writes still build on them.
  mutating func staleMatches(_ query: ViewQuery, returned: Set<String>) -> [String] {
    guard case .query(let structured, let parent, let collectionID, let allDescendants) = query else { return [] }
    let written = Set(batches.flatMap(\.documentNames))
    let cached = withStorage([]) { storage throws(CacheStorageError) in
      try storage.documents(parent: parent, collectionID: collectionID, allDescendants: allDescendants)
    }
    // A complete result has no bounds, so membership is the question, not order; only the
    // documents neither returned nor written need the query's test.
    let candidates = cached.filter { !returned.contains($0.name) && !written.contains($0.name) }
    return QueryEvaluator.unboundedMatches(structured, over: candidates).map(\.name)
  }
}
