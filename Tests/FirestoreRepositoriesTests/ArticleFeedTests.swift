import FirestoreClient
import FirestoreDemo
import FirestoreRepositories
import FirestoreTestSupport
import Foundation
import Synchronization
import Testing

/// ``ArticleFeed`` and ``ArticleNavigator`` on the mock and the emulator, with
/// request counts taken by a ``CountingTransport`` on the feed's own client.
@Suite("Repositories: article feed")
struct ArticleFeedTests {
  typealias Support = RepositoryTestSupport

  /// A feed over `count` fresh articles (all `swift`), its client's counter, and the
  /// collection path.
  static func feed(
    _ backend: Backend, count: Int, batchSize: Int = 20, category: @escaping (Int) -> String = { _ in "swift" }
  ) async throws -> (ArticleFeed, CountingTransport, String) {
    let path = backend.collection("articles").path
    try await Support.seedArticles(backend.db, path, count: count, category: category)
    let (db, counter) = backend.counted()
    let feed = try ArticleFeed(firestore: db, filter: .category("swift"), collection: path, batchSize: batchSize)
    return (feed, counter, path)
  }

  @Test("the ID list is one query with an ID-only projection, in the filter's order", arguments: Backend.all)
  func idListProjection(_ backend: Backend) async throws {
    let (feed, counter, _) = try await Self.feed(backend, count: 30, category: { $0 % 3 == 0 ? "server" : "swift" })
    try await feed.load()
    let requests = counter.requests
    #expect(requests.count == 1)
    let query = try #require(requests.first)
    #expect(query.path.hasSuffix(":runQuery"))
    #expect(query.body.contains(#""select":{"fields":[{"fieldPath":"__name__"}]}"#), "\(query.body)")
    #expect(query.body.contains(#""fieldPath":"category""#))
    // Newest first: a29, a28, a26... (multiples of 3 are "server").
    let expected = (1...30).reversed().filter { $0 % 3 != 0 }.map(Support.articleID)
    #expect(await feed.orderedIDs == expected)
    #expect(await feed.statistics.idsRead == 20)
    // No content came with the IDs: nothing is cached yet.
    #expect(await feed.cachedArticle(id: expected[0]) == nil)
    #expect(await feed.state.cachedCount == 0)
  }

  @Test("a batch of 20 is exactly one batchGet; cached IDs are never read again", arguments: Backend.all)
  func oneBatchGetPerBatch(_ backend: Backend) async throws {
    let (feed, counter, _) = try await Self.feed(backend, count: 45)
    try await feed.load()
    counter.reset()
    let first = try await feed.article(at: 0)
    #expect(first?.title == "Article 45")
    #expect(first?.id == "a45")
    #expect(counter.count(matching: ":batchGet") == 1)
    #expect(counter.totals.requests == 1)
    let body = try #require(counter.requests.first?.body)
    #expect(body.components(separatedBy: "/documents/").count - 1 == 20, "one batchGet names 20 documents")
    // The rest of the batch is cached: no more requests.
    for index in 1..<20 { #expect(try await feed.article(at: index)?.title == "Article \(45 - index)") }
    #expect(counter.totals.requests == 1)
    // Paging the list: batch 0 is cached, batch 1 costs one batchGet, the last 5 another.
    #expect(try await feed.loadNextBatch().count == 20)
    #expect(counter.totals.requests == 1)
    #expect(try await feed.loadNextBatch().count == 40)
    #expect(try await feed.loadNextBatch().count == 45)
    #expect(try await feed.loadNextBatch().count == 45)
    #expect(await feed.hasMoreToList == false)
    #expect(counter.count(matching: ":batchGet") == 3)
    #expect(await feed.listedArticles.map(\.title).first == "Article 45")
    #expect(await feed.statistics.batchRequests == 3)
    #expect(await feed.statistics.documentsRead == 45)
  }

  @Test("concurrent article(at:) calls for one batch share one request", arguments: Backend.all)
  func concurrentCallsShareOneRequest(_ backend: Backend) async throws {
    let (feed, counter, _) = try await Self.feed(backend, count: 40)
    try await feed.load()
    counter.reset()
    let titles = try await withThrowingTaskGroup(of: String?.self) { group in
      for index in 20..<40 { group.addTask { try await feed.article(at: index)?.title } }
      for _ in 0..<5 { group.addTask { try await feed.article(id: "a01")?.title } }
      return try await group.reduce(into: [String?]()) { $0.append($1) }
    }
    #expect(titles.count == 25)
    #expect(titles.allSatisfy { $0 != nil })
    #expect(counter.count(matching: ":batchGet") == 1)
    #expect(counter.totals.requests == 1)
  }

  @Test("the navigator crosses batch boundaries, prefetches ahead, and stops at both ends", arguments: Backend.all)
  func navigationAcrossBatches(_ backend: Backend) async throws {
    let (feed, counter, _) = try await Self.feed(backend, count: 50)
    try await feed.load()
    counter.reset()
    let navigator = await feed.navigator(startingAt: "a50", prefetchDistance: 3)
    #expect(try await navigator.previous() == nil)
    #expect(await navigator.index == 0)
    #expect(try await navigator.current()?.id == "a50")
    var visited: [Int] = [0]
    while let entry = try await navigator.next() {
      visited.append(entry.index)
      #expect(entry.article?.title == "Article \(50 - entry.index)")
      if entry.index == 17 {
        // Three from the edge: batch 1 is being (or has been) read before the reader gets there.
        await feed.waitForPendingReads()
        #expect(counter.count(matching: ":batchGet") == 2)
      }
    }
    #expect(visited == Array(0..<50))
    #expect(try await navigator.next() == nil)
    #expect(await navigator.index == 49)
    #expect(await navigator.hasNext == false)
    // Back across the boundary into batch 1: all cached.
    for _ in 0..<12 { _ = try await navigator.previous() }
    #expect(await navigator.index == 37)
    await feed.waitForPendingReads()
    #expect(counter.count(matching: ":batchGet") == 3)
    #expect(counter.totals.requests == 3)
    // Jumping lands on the right article; a position outside the list is a clear error.
    #expect(try await navigator.move(to: 3).id == "a47")
    let error = await #expect(throws: FirestoreError.self) { try await navigator.move(to: 50) }
    #expect(error?.code == .invalidArgument)
    #expect(error?.message.contains("50") == true)
  }

  @Test("an article deleted after the ID read is reported missing, not a crash", arguments: Backend.all)
  func deletedArticleIsMissing(_ backend: Backend) async throws {
    let (feed, _, path) = try await Self.feed(backend, count: 10)
    try await feed.load()
    try await backend.db.collection(path).document("a07").delete()
    let entries = try await feed.loadNextBatch()
    #expect(entries.count == 10)
    #expect(entries.filter(\.isMissing).map(\.id) == ["a07"])
    #expect(try await feed.article(id: "a07") == nil)
    #expect(try await feed.article(at: 3) == nil)  // a10, a09, a08, a07
    #expect(await feed.missingIDs == ["a07"])
    #expect(await feed.state.missingIDs == ["a07"])
    #expect(await feed.statistics.missingDocuments == 1)
    let navigator = await feed.navigator(startingAt: "a08")
    let entry = try await navigator.next()
    #expect(entry?.id == "a07")
    #expect(entry?.isMissing == true)
    #expect(try await navigator.next()?.article?.title == "Article 6")
  }

  @Test("a filter change reloads the ID list and resets the navigator", arguments: Backend.all)
  func filterChange(_ backend: Backend) async throws {
    let (feed, counter, _) = try await Self.feed(backend, count: 30, category: { $0 <= 10 ? "server" : "swift" })
    try await feed.load()
    #expect(await feed.count == 20)
    let navigator = await feed.navigator(startingAt: "a25")
    #expect(await navigator.index == 5)
    counter.reset()
    try await feed.setFilter(.category("server"))
    #expect(counter.count(matching: ":runQuery") == 1)
    #expect(await feed.orderedIDs == (1...10).reversed().map(Support.articleID))
    #expect(await feed.filterGeneration == 1)
    #expect(await navigator.index == 0)
    #expect(try await navigator.current()?.id == "a10")
    #expect(await feed.state.filter.contains("server"))
    // Unknown IDs and bad settings are clear errors.
    let unknown = await #expect(throws: FirestoreError.self) { try await feed.article(id: "a25") }
    #expect(unknown?.code == .notFound)
    #expect(throws: FirestoreError.self) { try ArticleFeed(firestore: backend.db, filter: .category("x"), batchSize: 0) }
    #expect(throws: FirestoreError.self) { try ArticleFeed(firestore: backend.db, filter: .category("x"), collection: "a/b") }
  }

  @Test("a live ID list shows new articles without a reload; the navigator keeps its article", arguments: Backend.all)
  func liveIDList(_ backend: Backend) async throws {
    let (feed, counter, path) = try await Self.feed(backend, count: 5)
    try await feed.load()
    let navigator = await feed.navigator(startingAt: "a03")
    #expect(await navigator.index == 2)
    let states = SequenceCollector(feed.states())
    defer { states.cancel() }
    await feed.startLiveUpdates()
    try await backend.db.collection(path).document("a99").setData([
      "title": "Fresh", "category": "swift", "publishedAt": Date(timeIntervalSince1970: 1_900_000_000),
    ])
    _ = try await states.wait("the new article at the top") { $0.orderedIDs.first == "a99" && $0.isLive }
    #expect(await feed.orderedIDs == ["a99", "a05", "a04", "a03", "a02", "a01"])
    // Its partial documents did not enter the client's cache as if they were whole
    // articles (nothing has read their content yet).
    let db = feed.firestore
    let cached = try? await db.collection(path).document("a02").getDocument(source: .cache)
    #expect(cached?.exists != true, "an ID-only listen cached a field-less a02")
    let local = try await db.collection(path).getDocuments(source: .cache)
    #expect(local.documents.allSatisfy { $0.get("title") != nil })
    #expect(await navigator.index == 3)
    #expect(try await navigator.current()?.id == "a03")
    #expect(try await feed.article(at: 0)?.title == "Fresh")
    // The listen asked for IDs only.
    #expect(counter.requests.contains { $0.body.contains("__name__") && $0.path.contains("Listen") })
    await feed.stopLiveUpdates()
    #expect(await feed.state.isLive == false)
  }

  @Test("an article becoming visible prefetches the batch after it", arguments: Backend.all)
  func visibilityPrefetch(_ backend: Backend) async throws {
    let (feed, counter, _) = try await Self.feed(backend, count: 30, batchSize: 10)
    try await feed.load()
    _ = try await feed.loadNextBatch()
    counter.reset()
    var tracker = VisibilityTracker<String>()
    let ids = await feed.orderedIDs
    // Rows 100 high; the viewport shows rows 4...7 fully.
    let frames = ids.prefix(10).enumerated().map {
      (id: $0.element, frame: VisibilitySpan(start: Double($0.offset) * 100, end: Double($0.offset + 1) * 100))
    }
    let events = tracker.update(frames: frames, viewport: VisibilitySpan(start: 400, end: 800))
    #expect(events == ids[4..<8].map { .presented($0) })
    for event in events { await feed.handle(event) }
    await feed.waitForPendingReads()
    #expect(counter.count(matching: ":batchGet") == 1)
    #expect(await feed.cachedArticle(id: ids[10]) != nil)
    #expect(await feed.cachedArticle(id: ids[19]) != nil)
    #expect(await feed.cachedArticle(id: ids[20]) == nil)
    // Paging the list on costs nothing now.
    _ = try await feed.loadNextBatch()
    #expect(counter.totals.requests == 1)
  }

  @Test(
    "a failed batch read is an error for the caller, leaves nothing half-loaded, and is retried by the next call", arguments: Backend.all)
  func failedBatchRead(_ backend: Backend) async throws {
    let path = backend.collection("articles").path
    try await Support.seedArticles(backend.db, path, count: 25)
    Ledger.record(backend)
    let transport = SwitchableTransport(wrapping: backend.transport)
    let db = backend.firestore {
      $0.transport = transport
      $0.retryPolicy = .none
    }
    let feed = try ArticleFeed(firestore: db, filter: .category("swift"), collection: path)
    try await feed.load()
    transport.offline = true
    let error = await #expect(throws: FirestoreError.self) { try await feed.article(at: 3) }
    #expect(error?.code == .unavailable)
    #expect(await feed.state.cachedCount == 0)
    #expect(await feed.state.loadingBatches.isEmpty)
    #expect(await feed.state.lastError?.contains("UNAVAILABLE") == true)
    #expect(await feed.missingIDs.isEmpty)  // a failure is not a deletion
    // A prefetch that fails is reported in the state, not thrown at anyone.
    await feed.prefetch(batch: 1)
    await feed.waitForPendingReads()
    #expect(await feed.state.cachedCount == 0)
    // A navigator whose read fails stays where it was.
    let navigator = await feed.navigator()
    await #expect(throws: FirestoreError.self) { try await navigator.next() }
    #expect(await navigator.index == 0)
    transport.offline = false
    #expect(try await feed.article(at: 3)?.title == "Article 22")
    #expect(await feed.state.cachedCount == 20)
    #expect(await feed.statistics.batchRequests == 1)
  }

  @Test("a paged ID list reads pages with the sort field for the cursor, and the same order", arguments: Backend.all)
  func pagedIDList(_ backend: Backend) async throws {
    let path = backend.collection("articles").path
    try await Support.seedArticles(backend.db, path, count: 45)
    let (db, counter) = backend.counted()
    let feed = try ArticleFeed(firestore: db, filter: .category("swift"), collection: path, idPageSize: 20)
    try await feed.load()
    #expect(await feed.orderedIDs == (1...45).reversed().map(Support.articleID))
    let queries = counter.requests.filter { $0.path.hasSuffix(":runQuery") }
    #expect(queries.count == 3)
    for query in queries {
      #expect(query.body.contains(#""select":{"fields":[{"fieldPath":"publishedAt"},{"fieldPath":"__name__"}]}"#), "\(query.body)")
      #expect(query.body.contains(#""limit":20"#))
    }
    #expect(queries.dropFirst().allSatisfy { $0.body.contains("startAt") })
    #expect(await feed.statistics.idQueries == 3)
    #expect(throws: FirestoreError.self) { try ArticleFeed(firestore: db, filter: .category("swift"), idPageSize: 0) }
  }
}
