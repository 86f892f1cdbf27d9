import FirestoreEngine
import FirestoreWire

/// One listener's view in the ``LocalStore``: the server's latest results for its target
/// and what was delivered last, from which each new ``ViewSnapshot`` is computed.
struct QueryView {
  /// What was delivered last.
  struct Delivered {
    var documents: [Document]
    var pendingNames: Set<String>
    var isFromCache: Bool
  }

  let query: ViewQuery
  /// Whether the view listens to the server or only to the cache.
  let source: ListenSource
  let includeMetadataChanges: Bool
  /// Receives each snapshot; called under the store's lock, so it must not call the store.
  let emit: @Sendable (ViewSnapshot) -> Void
  /// The listen target's documents by name at the last server snapshot, `nil` before it.
  var server: [String: Document]?
  /// The same documents in the target's order, as the server snapshot had them.
  var serverDocuments: [Document] = []
  /// The read time of the last server snapshot.
  var serverReadTime: Timestamp?
  /// The last delivered state, `nil` before the first snapshot.
  var delivered: Delivered?
  /// Whether the listen stream went down since the last server snapshot, or the target
  /// runs again after the server's count did not match: the server data may be out of
  /// date, so it is shown as from the cache.
  var isStale = false
  /// Documents the listener was shown that the server's results leave out without the
  /// server having removed them (it sent the set again whole without them), though the
  /// listen is past any write of this client to them: an acknowledged write the listen
  /// never sent, or a rejected one over a version the results dropped. As the Apple SDK's
  /// limbo documents, they stay shown until a listen to each document alone says whether
  /// it exists; meanwhile the view is not in sync.
  var limbo: Set<String> = []
  /// The version shown of each ``limbo`` document: the newest known when it went into
  /// limbo (the server's results, the cache), then the one its own listen reports. None
  /// when nothing was known (no cache): the acknowledged write that showed it is applied
  /// until that listen answers.
  var limboDocuments: [String: Document] = [:]

  init(query: ViewQuery, source: ListenSource = .default, includeMetadataChanges: Bool, emit: @escaping @Sendable (ViewSnapshot) -> Void) {
    self.query = query
    self.source = source
    self.includeMetadataChanges = includeMetadataChanges
    self.emit = emit
  }

  /// Whether the view listens to the server and shows its data as current (it has a server
  /// snapshot, the stream has not gone down since, and it holds no document in limbo).
  var isSynced: Bool { source == .default && server != nil && !isStale && limbo.isEmpty }

  /// Whether the view shows the state of another view of its query that is in sync, when
  /// there is one: it reads the cache only, or has no server data of its own yet.
  var follows: Bool { source == .cache || server == nil }

  /// The server's results with the ``limboDocuments`` still shown, by name.
  var heldDocuments: [String: Document] {
    guard let server else { return [:] }
    return limboDocuments.isEmpty ? server : server.merging(limboDocuments) { held, _ in held }
  }

  /// Whether this view must still apply write `index` of `batch` over its server data.
  ///
  /// Pending writes always apply. An acknowledged write applies while the listen has not
  /// caught up with it: the server data holds the document at an older version than the
  /// write's (as the Apple SDK ignores a watch update older than an acknowledged write,
  /// whatever its read time: a resumed target can be consistent past the commit and still
  /// hold a version the write replaced), or does not hold it and is older than the commit
  /// or waits to learn whether it exists (``limbo``). (A cache-only view reads the cache,
  /// which already has it.)
  func needs(_ batch: MutationBatch, _ index: Int) -> Bool {
    guard let commitTime = batch.commitTime else { return true }
    guard let server, let readTime = serverReadTime else { return false }
    let name = batch.writes[index].documentName
    if let held = (server[name] ?? limboDocuments[name])?.updateTime {
      return held < (batch.acknowledgements?[index].updateTime ?? commitTime)
    }
    return readTime < commitTime || limbo.contains(name)
  }

  /// Whether a write of `batch` that this view applies counts as pending: until the server
  /// acknowledged it, and then until the listen has been consistent at or past its commit.
  ///
  /// A consistent server has sent the written version by then, and ``needs(_:_:)`` no longer
  /// applies the write. A server that reports a snapshot past the commit still holding the
  /// replaced version (the emulator, when a commit lands while a target is re-added) never
  /// sends it: the write's data stays applied, and is then settled, not pending for good.
  func countsAsPending(_ batch: MutationBatch) -> Bool {
    guard let commitTime = batch.commitTime, let readTime = serverReadTime else { return true }
    return readTime < commitTime
  }

  /// The snapshot to deliver for the new state, or `nil` when the listener must not hear of it.
  ///
  /// A document shown with a pending write whose new data comes from that write's
  /// acknowledgement alone (its transforms' results in place of the local estimates: a
  /// server timestamp) keeps the data shown until the listen catches up, as the Apple SDK
  /// waits for the synced document: the listener hears of the write as pending, then as
  /// the server has it, not once more in between.
  ///
  /// - Parameters:
  ///   - acknowledgedOnly: of `pendingNames`, those whose writes the server has all
  ///     acknowledged.
  ///   - hasCachedResults: whether the server answered this query before, so that the
  ///     cache holds its results (then a first snapshot comes from it even when empty).
  ///   - listenOffline: whether the listen stream is down, so that a first snapshot from the
  ///     cache is delivered even when it is empty (the server's will not come soon).
  ///   - syncedBy: for a view that ``follows``, the listener of the same query that listens
  ///     to the server and is in sync with it: as in the Apple SDK, where listeners of one
  ///     query share one view, this one then shows that synced state.
  mutating func snapshot(
    documents: [Document], pendingNames: Set<String>, acknowledgedOnly: Set<String> = [], listenOffline: Bool = false,
    hasCachedResults: Bool = false, syncedBy: QueryView? = nil
  ) -> ViewSnapshot? {
    let isFromCache = syncedBy == nil && (source == .cache || !isSynced)
    let ordering = query.ordering
    let old = delivered
    let documents = Self.holdingAcknowledged(documents, acknowledgedOnly, shown: old, ordering: ordering)
    let previous = old?.documents ?? []
    let oldPending = old?.pendingNames ?? []
    // A version this client wrote is compared by contents alone: its confirmation changes
    // the version but not the data, which the Apple SDK reports as a metadata change only.
    let modified = { (before: Document, after: Document) in
      Self.differ(before, after, written: oldPending.contains(before.name) || pendingNames.contains(after.name))
    }
    let changes = WatchChange.changes(from: previous, to: documents, ordering: ordering, isModified: modified)
    let changesWithMetadata = WatchChange.changes(from: previous, to: documents, ordering: ordering) { before, after in
      modified(before, after) || oldPending.contains(before.name) != pendingNames.contains(after.name)
    }
    let raise: Bool
    if let old {
      let metadataChanged =
        old.isFromCache != isFromCache || old.pendingNames.isEmpty != pendingNames.isEmpty
        || changesWithMetadata.count != changes.count
      raise = !changes.isEmpty || (includeMetadataChanges && metadataChanged)
    } else {
      // As the Apple SDK: the first snapshot comes from the server, or earlier from the
      // cache when it has something to show (documents, or the results of the server's
      // earlier answer, even empty), when the server cannot be reached, or when the
      // listener reads the cache only.
      raise = !isFromCache || !documents.isEmpty || hasCachedResults || listenOffline || source == .cache
    }
    guard raise else { return nil }
    delivered = Delivered(documents: documents, pendingNames: pendingNames, isFromCache: isFromCache)
    return ViewSnapshot(
      documents: documents, changes: changes, changesWithMetadata: changesWithMetadata,
      readTime: syncedBy?.serverReadTime ?? serverReadTime,
      isFromCache: isFromCache, pendingNames: pendingNames)
  }

  /// `documents` with those in `acknowledgedOnly` that were shown pending and whose data
  /// changed since put back as `shown` had them, in order.
  private static func holdingAcknowledged(
    _ documents: [Document], _ acknowledgedOnly: Set<String>, shown: Delivered?, ordering: DocumentOrdering
  ) -> [Document] {
    guard let shown, !acknowledgedOnly.isEmpty, !shown.pendingNames.isEmpty else { return documents }
    let held = acknowledgedOnly.intersection(shown.pendingNames)
    guard !held.isEmpty else { return documents }
    let before = Dictionary(shown.documents.lazy.filter { held.contains($0.name) }.map { ($0.name, $0) }) { a, _ in a }
    var changed = false
    let result = documents.map { document in
      guard let old = before[document.name], !ServerTimestampSentinel.sameData(old.fields, document.fields) else { return document }
      changed = true
      return old
    }
    return changed ? result.sorted(by: ordering.areInIncreasingOrder) : documents
  }

  /// Whether a document changed for a listener: its contents, or its version unless one
  /// side is this client's own write. (A cached copy may lack the create time the
  /// server's has; that is no change.)
  private static func differ(_ a: Document, _ b: Document, written: Bool) -> Bool {
    !ServerTimestampSentinel.sameData(a.fields, b.fields) || (!written && a.updateTime != b.updateTime)
  }
}
