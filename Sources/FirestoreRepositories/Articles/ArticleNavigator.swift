import FirestoreClient

/// The detail screen's position in an ``ArticleFeed``: an index into the feed's global
/// ordered ID list (never into one loaded batch), with ``next()`` and ``previous()``.
///
/// - At the ends, ``next()`` and ``previous()`` return `nil` and the position stays.
/// - Moving within ``prefetchDistance`` of a batch edge starts reading the neighbouring
///   batch in the background, so the article after the edge is usually cached by the time
///   the reader gets there.
/// - After the feed's filter changes the navigator starts again at the first article; when
///   a live ID list moves the current article, the navigator follows it by ID.
///
/// ```swift
/// let navigator = await feed.navigator(startingAt: tappedID)
/// let shown = try await navigator.current()
/// if let next = try await navigator.next() { show(next.article) }
/// ```
public actor ArticleNavigator {
  /// The feed navigated.
  public nonisolated let feed: ArticleFeed
  /// How close (in articles) to a batch edge a move triggers the neighbour's prefetch.
  public nonisolated let prefetchDistance: Int
  private var position: Int
  private var currentID: String?
  private var generation: Int

  init(feed: ArticleFeed, index: Int, id: String?, generation: Int, prefetchDistance: Int) {
    self.feed = feed
    self.position = index
    self.currentID = id
    self.generation = generation
    self.prefetchDistance = max(0, prefetchDistance)
  }

  /// Brings the position up to date with the feed (filter changes, live list moves).
  private func sync() async -> Int {
    let now = await feed.resolve(id: currentID, index: position, generation: generation)
    generation = now.generation
    position = now.index
    currentID = now.id
    return now.count
  }

  /// The current index into the feed's ordered list.
  public var index: Int {
    get async {
      _ = await sync()
      return position
    }
  }

  /// Whether ``next()`` would move.
  public var hasNext: Bool {
    get async { position + 1 < (await sync()) }
  }

  /// Whether ``previous()`` would move.
  public var hasPrevious: Bool {
    get async {
      _ = await sync()
      return position > 0
    }
  }

  /// The current entry (reading its batch if needed), or `nil` when the feed is empty.
  public func current() async throws -> FeedEntry? {
    guard await sync() > 0 else { return nil }
    return try await show(position)
  }

  /// Moves to the next article and returns it; `nil` (and no move) at the end.
  public func next() async throws -> FeedEntry? {
    let count = await sync()
    guard position + 1 < count else { return nil }
    return try await show(position + 1)
  }

  /// Moves to the previous article and returns it; `nil` (and no move) at the start.
  public func previous() async throws -> FeedEntry? {
    _ = await sync()
    guard position > 0 else { return nil }
    return try await show(position - 1)
  }

  /// Moves to `index` of the ordered list and returns that entry.
  ///
  /// - Throws: `invalidArgument` when `index` is outside the list.
  public func move(to index: Int) async throws -> FeedEntry {
    let count = await sync()
    guard (0..<count).contains(index) else {
      throw FirestoreError(.invalidArgument, "navigator index \(index) is outside the feed's \(count) articles")
    }
    return try await show(index)
  }

  private func show(_ index: Int) async throws -> FeedEntry {
    // Moved before the read, so two quick taps on "next" move two articles; a failed read
    // puts the position back where it was.
    let (previousPosition, previousID) = (position, currentID)
    position = index
    let entry: FeedEntry
    do {
      entry = try await feed.entry(at: index)
    } catch {
      if position == index { (position, currentID) = (previousPosition, previousID) }
      throw error
    }
    currentID = entry.id
    await prefetchAround(index)
    return entry
  }

  /// Starts the neighbouring batch's read when `index` is near a batch edge.
  private func prefetchAround(_ index: Int) async {
    let size = feed.batchSize
    let offset = index % size
    let batch = feed.batch(containing: index)
    if size - 1 - offset < prefetchDistance { await feed.prefetch(batch: batch + 1) }
    if offset < prefetchDistance, batch > 0 { await feed.prefetch(batch: batch - 1) }
  }
}
