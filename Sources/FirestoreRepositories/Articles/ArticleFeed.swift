import FirestoreClient

/// An article reader for feeds and detail screens: the ordered IDs of every article matching a
/// filter, read once with an ID-only projection, and a content cache filled in batches
/// through `getAll` — one `:batchGet` per batch of ``batchSize`` articles instead of one
/// `get` per article.
///
/// - The ID list is read with `select(__name__)`: names only, no fields, however large the
///   articles are. ``orderedIDs`` is the global order that list screens and the
///   ``ArticleNavigator`` share, so an index means the same article everywhere.
/// - ``article(at:)`` and ``article(id:)`` answer from the cache, or read the batch that
///   holds the position and then answer. Concurrent calls for one batch share a single
///   request, and IDs already cached are never read again.
/// - An article deleted between the ID read and its batch read comes back as `nil` and is
///   listed in ``ArticleFeedState/missingIDs``; it is never a crash or an error.
/// - ``setFilter(_:)`` reads the new ID list and bumps the generation, which resets every
///   navigator to the first article. The content cache is kept: it is keyed by ID.
/// - ``startLiveUpdates()`` keeps the ID list live with a listener on the ID-only query.
///
/// ```swift
/// let feed = try ArticleFeed(firestore: db, filter: .category("swift"))
/// try await feed.load()                          // one :runQuery, IDs only
/// let firstPage = try await feed.loadNextBatch() // one :batchGet of 20
/// let navigator = await feed.navigator(startingAt: firstPage[3].id)
/// let next = try await navigator.next()          // cached; prefetches ahead of the edge
/// ```
public actor ArticleFeed {
  /// The database read.
  public nonisolated let firestore: Firestore
  /// The collection holding the articles.
  public nonisolated let collection: CollectionReference
  /// How many articles one batch read loads (one `:batchGet`).
  public nonisolated let batchSize: Int
  /// How many IDs one ID-list query reads, or `nil` for the whole list in one query.
  public nonisolated let idPageSize: Int?
  /// The filter in force.
  public private(set) var filter: ArticleFilter
  /// What has been read from the server so far.
  public private(set) var statistics = FeedStatistics()

  private var ids: [String] = []
  private var positions: [String: Int] = [:]
  private var cache: [String: Article] = [:]
  private var missing: Set<String> = []
  /// Batch reads in flight, by (list version, batch index): a second caller awaits the
  /// first one's task instead of sending its own request.
  private var inFlight: [BatchKey: Task<Void, any Error>] = [:]
  /// Bumped whenever the ID list changes, so batch boundaries of an old list never match.
  private var listVersion = 0
  private var generation = 0
  private var listed = 0
  private var isLoadingIDs = false
  private var lastError: String?
  private var liveTask: Task<Void, Never>?
  let broadcaster: StateBroadcaster<ArticleFeedState>

  private struct BatchKey: Hashable {
    var version: Int
    var batch: Int
  }

  /// Creates a feed; nothing is read until ``load()``.
  ///
  /// - Parameters:
  ///   - firestore: the database.
  ///   - filter: which articles, in which order.
  ///   - collection: the collection path (default `articles`).
  ///   - batchSize: articles per batch read, 1 to 1000 (default 20, as in the seed).
  ///   - idPageSize: read the ID list in pages of this many (each page a query that
  ///     continues after the last one) instead of one query; for lists so long that one
  ///     response would be too big. `nil` (the default) reads it in one query.
  /// - Throws: `invalidArgument` for a batch size outside 1...1000, an ID page size below
  ///   1, or an invalid collection path.
  public init(
    firestore: Firestore, filter: ArticleFilter, collection: String = "articles", batchSize: Int = 20, idPageSize: Int? = nil
  ) throws {
    guard (1...1000).contains(batchSize) else {
      throw FirestoreError(.invalidArgument, "ArticleFeed batchSize must be between 1 and 1000, got \(batchSize)")
    }
    if let idPageSize, idPageSize < 1 {
      throw FirestoreError(.invalidArgument, "ArticleFeed idPageSize must be at least 1, got \(idPageSize)")
    }
    self.idPageSize = idPageSize
    let segments = collection.split(separator: "/", omittingEmptySubsequences: false)
    guard !collection.isEmpty, segments.count % 2 == 1, !segments.contains(where: \.isEmpty) else {
      throw FirestoreError(.invalidArgument, "ArticleFeed collection \"\(collection)\" is not a collection path")
    }
    self.firestore = firestore
    self.collection = firestore.collection(collection)
    self.batchSize = batchSize
    self.filter = filter
    self.broadcaster = StateBroadcaster(ArticleFeedState(filter: filter.description))
  }

  deinit {
    liveTask?.cancel()
    broadcaster.finish()
  }

  // MARK: State

  /// The feed's state now and after every change, as an `AsyncSequence` that never fails.
  ///
  /// ```swift
  /// for await state in await feed.states() { render(state.orderedIDs.count, state.loadingBatches) }
  /// ```
  public nonisolated func states() -> AsyncStream<ArticleFeedState> { broadcaster.stream() }

  /// The feed's state now.
  public var state: ArticleFeedState { broadcaster.value }

  /// The ordered IDs of every article matching the filter (empty before ``load()``).
  public var orderedIDs: [String] { ids }

  /// How many articles match the filter.
  public var count: Int { ids.count }

  /// Bumped by every ``setFilter(_:)``.
  public var filterGeneration: Int { generation }

  /// IDs whose documents were gone when their batch was read.
  public var missingIDs: Set<String> { missing }

  /// The articles the list has paged in with ``loadNextBatch()``, in order, without the
  /// missing ones.
  public var listedArticles: [Article] {
    ids.prefix(listed).compactMap { cache[$0] }
  }

  /// The cached article with this ID, without reading anything.
  public func cachedArticle(id: String) -> Article? { cache[id] }

  /// The position of `id` in the ordered list, if it is there.
  public func index(of id: String) -> Int? { positions[id] }

  private func publish() {
    var s = ArticleFeedState(filter: filter.description)
    s.generation = generation
    s.orderedIDs = ids
    s.listedCount = listed
    s.cachedCount = cache.count
    s.missingIDs = missing
    s.isLoadingIDs = isLoadingIDs
    s.loadingBatches = Set(inFlight.keys.filter { $0.version == listVersion }.map(\.batch))
    s.isLive = liveTask != nil
    s.lastError = lastError
    broadcaster.send(s)
  }

  // MARK: ID list

  /// The ID-only query of the current filter: `select(__name__)`, so the server sends
  /// document names and nothing else.
  public var idQuery: Query { filter.query(in: collection).selectDocumentIDs() }

  /// Reads the ordered ID list of the current filter: one `:runQuery` with IDs only, or,
  /// with ``idPageSize``, pages of that many.
  ///
  /// Calling it again re-reads the list; the position of the list screen is kept, and
  /// cached articles stay cached.
  public func load() async throws {
    let startedGeneration = generation
    isLoadingIDs = true
    publish()
    do {
      let newIDs = try await readIDs()
      // A filter change while this read was in flight wins: its own load sets the list.
      guard startedGeneration == generation else { return }
      isLoadingIDs = false
      replaceIDs(newIDs)
    } catch {
      if startedGeneration == generation { isLoadingIDs = false }
      publish()
      throw error
    }
  }

  /// The ordered IDs, in one query or in pages. Pages continue after the last document of
  /// the previous page, which needs its sort field: only then does the projection carry it
  /// besides `__name__`.
  private func readIDs() async throws -> [String] {
    guard let idPageSize else {
      let snapshot = try await idQuery.getDocuments(source: .server)
      statistics.idQueries += 1
      statistics.idsRead += snapshot.documents.count
      return snapshot.documents.map(\.documentID)
    }
    let paged = filter.query(in: collection).select([filter.orderBy, FieldPath.documentID()]).limit(to: idPageSize)
    var result: [String] = []
    var query = paged
    while true {
      let page = try await query.getDocuments(source: .server)
      statistics.idQueries += 1
      statistics.idsRead += page.documents.count
      result += page.documents.map(\.documentID)
      guard page.documents.count == idPageSize, let last = page.documents.last else { return result }
      query = paged.start(afterDocument: last)
    }
  }

  /// Switches to `filter`: re-reads the ID list, resets the list paging and (through the
  /// generation) every navigator's index. A live ID list follows the new filter.
  public func setFilter(_ filter: ArticleFilter) async throws {
    self.filter = filter
    generation += 1
    listed = 0
    let wasLive = liveTask != nil
    liveTask?.cancel()
    liveTask = nil
    replaceIDs([])
    try await load()
    if wasLive { startLiveUpdates() }
  }

  private func replaceIDs(_ newIDs: [String]) {
    guard newIDs != ids else { return publish() }
    ids = newIDs
    positions = [:]
    for (i, id) in ids.enumerated() where positions[id] == nil { positions[id] = i }
    listVersion += 1
    listed = min(listed, ids.count)
    // An ID back in the list may exist again; let its batch read it.
    missing.formIntersection(positions.keys)
    publish()
  }

  // MARK: Content

  /// The batch holding position `index`.
  public nonisolated func batch(containing index: Int) -> Int { index / batchSize }

  /// The positions batch `batch` covers in a list of `count` IDs.
  private func range(ofBatch batch: Int) -> Range<Int> {
    let start = batch * batchSize
    return min(start, ids.count)..<min(start + batchSize, ids.count)
  }

  /// The article at `index` of the ordered list: from the cache, or after reading the
  /// batch that holds it. `nil` when that article was deleted after the ID list was read.
  ///
  /// - Throws: `invalidArgument` when `index` is outside the list (naming the index and the
  ///   count), or the batch read's error.
  public func article(at index: Int) async throws -> Article? {
    guard ids.indices.contains(index) else {
      throw FirestoreError(.invalidArgument, "article index \(index) is outside the feed's \(ids.count) articles (\(filter))")
    }
    let id = ids[index]
    if let article = cache[id] { return article }
    if missing.contains(id) { return nil }
    try await loadBatch(batch(containing: index))
    return cache[id]
  }

  /// The article with this ID: from the cache, or after reading the batch that holds it.
  /// `nil` when it was deleted after the ID list was read.
  ///
  /// - Throws: `notFound` when `id` is not in the feed's list.
  public func article(id: String) async throws -> Article? {
    if let article = cache[id] { return article }
    guard let index = positions[id] else {
      throw FirestoreError(.notFound, "article \(id) is not in the feed (\(filter))")
    }
    return try await article(at: index)
  }

  /// The entry at `index`: its ID and the article or `nil` when missing.
  public func entry(at index: Int) async throws -> FeedEntry {
    let article = try await article(at: index)
    return FeedEntry(index: index, id: ids[index], article: article)
  }

  /// Pages the list: reads the next batch of positions (one `:batchGet`, fewer IDs when
  /// some are cached, none when all are) and returns every listed entry so far.
  /// At the end of the list it reads nothing and returns the same entries.
  @discardableResult
  public func loadNextBatch() async throws -> [FeedEntry] {
    let upper = min(listed + batchSize, ids.count)
    if upper > listed {
      try await loadBatches(covering: listed..<upper)
      listed = max(listed, upper)
      publish()
    }
    return ids.prefix(listed).enumerated().map { FeedEntry(index: $0.offset, id: $0.element, article: cache[$0.element]) }
  }

  /// Whether every position of the list has been paged in.
  public var hasMoreToList: Bool { listed < ids.count }

  /// Starts reading batch `batch` in the background unless it is cached or already being
  /// read; a later ``article(at:)`` there awaits the same request. Errors land in
  /// ``ArticleFeedState/lastError``.
  public func prefetch(batch: Int) {
    guard batch >= 0, batch * batchSize < ids.count else { return }
    startBatch(batch)
  }

  /// Prefetches the batch after the one holding `index`: what a list does when a row near
  /// the end of what it shows becomes visible.
  public func prefetchBatch(after index: Int) {
    prefetch(batch: batch(containing: index) + 1)
  }

  /// Awaits every batch read in flight (for tests and the demo, to see a prefetch land).
  public func waitForPendingReads() async {
    while let task = inFlight.values.first {
      _ = try? await task.value
    }
  }

  private func loadBatches(covering positions: Range<Int>) async throws {
    guard !positions.isEmpty else { return }
    for batch in batch(containing: positions.lowerBound)...batch(containing: positions.upperBound - 1) {
      try await loadBatch(batch)
    }
  }

  /// Reads the uncached IDs of `batch` with one `getAll`, sharing a read in flight.
  private func loadBatch(_ batch: Int) async throws {
    try await startBatch(batch)?.value
  }

  /// The read of `batch`: the one in flight, a new one (registered before this returns,
  /// so ``waitForPendingReads()`` sees it), or `nil` when everything in it is cached.
  @discardableResult
  private func startBatch(_ batch: Int) -> Task<Void, any Error>? {
    let key = BatchKey(version: listVersion, batch: batch)
    if let task = inFlight[key] { return task }
    let wanted = ids[range(ofBatch: batch)].filter { cache[$0] == nil && !missing.contains($0) }
    guard !wanted.isEmpty else { return nil }
    let references = wanted.map { collection.document($0) }
    let db = firestore
    let task = Task<Void, any Error> {
      do {
        let snapshots = try await db.getAll(references)
        self.store(snapshots, key: key)
      } catch {
        self.fail(key: key, error: error)
        throw error
      }
    }
    inFlight[key] = task
    publish()
    return task
  }

  private func store(_ snapshots: [DocumentSnapshot], key: BatchKey) {
    statistics.batchRequests += 1
    for snapshot in snapshots {
      if snapshot.exists, let article = try? snapshot.data(as: Article.self) {
        statistics.documentsRead += 1
        cache[snapshot.documentID] = article
        missing.remove(snapshot.documentID)
      } else {
        statistics.missingDocuments += 1
        missing.insert(snapshot.documentID)
      }
    }
    inFlight[key] = nil
    publish()
  }

  private func fail(key: BatchKey, error: any Error) {
    inFlight[key] = nil
    lastError = "\(error)"
    publish()
  }

  // MARK: Live ID list

  /// Keeps the ID list live: listens on the ID-only query, so articles added, removed or
  /// reordered on the server show up without a reload. Each change bumps the list version
  /// (navigators keep their article by ID). A listener error stops it and is reported in
  /// ``ArticleFeedState/lastError``.
  public func startLiveUpdates() {
    guard liveTask == nil else { return }
    let query = idQuery
    let startedGeneration = generation
    // Weak: a feed dropped without stopLiveUpdates() must not be kept alive (and
    // listening) by its own listener task; deinit cancels it.
    liveTask = Task { [weak self] in
      do {
        for try await snapshot in query.snapshots {
          guard let self else { return }
          await self.applyLive(snapshot.documents.map(\.documentID), generation: startedGeneration)
        }
      } catch is CancellationError {
      } catch {
        await self?.liveFailed(error, generation: startedGeneration)
      }
    }
    publish()
  }

  /// Stops following the ID list; the list stays as last seen.
  public func stopLiveUpdates() {
    liveTask?.cancel()
    liveTask = nil
    publish()
  }

  private func applyLive(_ newIDs: [String], generation: Int) {
    guard generation == self.generation, liveTask != nil else { return }
    replaceIDs(newIDs)
  }

  private func liveFailed(_ error: any Error, generation: Int) {
    guard generation == self.generation else { return }
    liveTask = nil
    lastError = "\(error)"
    publish()
  }

  // MARK: Navigation

  /// A detail navigator over this feed's global order, at the position of `id` (the first
  /// article when `id` is `nil` or not in the list).
  public func navigator(startingAt id: String? = nil, prefetchDistance: Int = 3) -> ArticleNavigator {
    let index = id.flatMap { positions[$0] } ?? 0
    return ArticleNavigator(
      feed: self, index: index, id: ids.indices.contains(index) ? ids[index] : nil, generation: generation,
      prefetchDistance: prefetchDistance)
  }
}

extension ArticleFeed {
  /// Where a navigator at `id`/`index` of `generation` stands now: the filter generation,
  /// the list length, and the index it should use (following its article by ID when the
  /// live list moved it; the first article after a filter change).
  func resolve(id: String?, index: Int, generation: Int) -> (generation: Int, count: Int, index: Int, id: String?) {
    var resolved = index
    if generation != self.generation {
      resolved = 0
    } else if let id, let position = positions[id] {
      resolved = position
    }
    resolved = ids.isEmpty ? 0 : min(max(resolved, 0), ids.count - 1)
    return (self.generation, ids.count, resolved, ids.isEmpty ? nil : ids[resolved])
  }
}
