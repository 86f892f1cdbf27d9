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
final class LocalStore: Sendable {
  private let state: Locked<LocalStoreState>

  /// Opens the cache `settings` describe for the database whose documents live under
  /// `documentsRoot`; problems with a persistent file are reported through `log`.
  init(
    settings: LocalCacheSettings, projectID: String, databaseID: String, documentsRoot: String,
    log: @escaping @Sendable (String) -> Void
  ) {
    var filePath: String?
    if case .persistent(let directory, _) = settings {
      filePath = directory.appendingPathComponent(Self.fileName(projectID: projectID, databaseID: databaseID)).path
    }
    state = Locked(LocalStoreState(settings: settings, filePath: filePath, documentsRoot: documentsRoot, log: log))
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
    state.withLock { $0.store(documents) }
  }

  /// The complete result of a server query: the cache learns the documents, and when the
  /// result is not cut by a limit or cursor (`isComplete`), cached documents that match
  /// `query` locally but were not returned are dropped as stale.
  func didRunQuery(_ query: ViewQuery, results: [Document], isComplete: Bool) {
    state.withLock { s in
      var updates = results.map { (name: $0.name, document: Optional($0)) }
      if isComplete {
        for name in s.staleMatches(query, returned: Set(results.map(\.name))) { updates.append((name, nil)) }
      }
      s.store(updates)
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

  /// Shows `writes` to the listeners at once; returns the batch ID to settle it with.
  func addBatch(_ writes: [Write]) -> Int {
    state.withLock { $0.addBatch(writes, localWriteTime: .now()) }
  }

  /// The server rejected the batch: listeners roll back.
  func rejectBatch(_ id: Int) {
    state.withLock { $0.rejectBatch(id) }
  }

  /// The server accepted the batch with `results`.
  func acknowledgeBatch(_ id: Int, results: [WriteResult]) {
    state.withLock { $0.acknowledgeBatch(id, results: results) }
  }

  /// A transaction committed `writes` with `results`: the cache learns the outcome (a
  /// transaction's writes are not shown before they commit).
  func didCommit(_ writes: [Write], results: [WriteResult]) {
    guard let commitTime = results.first?.commitTime, results.count == writes.count else { return }
    var batch = MutationBatch(id: 0, writes: writes, localWriteTime: commitTime)
    batch.commitTime = commitTime
    batch.acknowledgements = results.map { .init(updateTime: $0.updateTime, transformResults: $0.transformResults) }
    state.withLock { $0.storeCommitted(batch) }
  }

  // MARK: - Listeners

  /// Registers a listener's view; it gets its first snapshot from the cache at once when
  /// the cache has something to show. Returns the view ID.
  func addView(_ query: ViewQuery, includeMetadataChanges: Bool, emit: @escaping @Sendable (ViewSnapshot) -> Void) -> Int {
    state.withLock { s in
      let id = s.nextViewID
      s.nextViewID += 1
      s.views[id] = QueryView(query: query, includeMetadataChanges: includeMetadataChanges, emit: emit)
      s.refresh(id)
      return id
    }
  }

  /// A server snapshot for view `id`.
  func applyWatch(_ id: Int, _ snapshot: WatchSnapshot) {
    state.withLock { $0.applyWatch(id, snapshot) }
  }

  /// Forgets view `id`.
  func removeView(_ id: Int) {
    state.withLock { s in
      s.views[id] = nil
      s.pruneBatches()
    }
  }
}
