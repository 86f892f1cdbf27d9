import BenchmarkSupport
import FirestoreClient
import FirestoreDemo
import FirestoreRepositories

/// `reader`: an article reader on the bench dataset, done two ways over the same
/// walk, with round trips and bytes counted by a `CountingTransport`:
///
/// 1. `reader`: ``FirestoreRepositories/ArticleFeed`` over the 400 `tech` articles (one
///    ID-only query), the list paged 3 batches of 20 (one `getAll` each), the article at
///    position 45 opened, and 30 swipes to the next one with an
///    ``FirestoreRepositories/ArticleNavigator`` (which prefetches the next batch near an
///    edge).
/// 2. `reader.per-article`: the naive reader: the full query for the IDs,
///    then for every batch the walk needs, one `getDocument` per uncached article (20 at
///    once, as its `DispatchGroup` does).
///
/// Both read the same 80 articles. Also reports the bytes of the ID-only list against the
/// full-document list of the same 400 (the target is at most 10 %), and the round-trip
/// ratio (the target is at least 10×). Wall time is the median over the runs (2 warm-up,
/// then 20 at scale 2).
enum ReaderScenario {
  static let batchSize = 20
  static let pages = 3
  static let openedIndex = 45
  static let swipes = 30

  /// One walk's cost.
  struct Walk {
    var roundTrips = 0
    var documentsRead = 0
    var bytesReceived = 0
    /// Bytes of the list query (ID-only for the feed, full documents for the seed).
    var listBytes = 0
  }

  static func run(_ options: BenchOptions) async throws -> [BenchResult] {
    let host = try options.emulatorHost()
    func client() -> (Firestore, CountingTransport) {
      let counter = CountingTransport(wrapping: CurlTransport(), recordLimit: 0)
      let settings = FirestoreSettings.emulator(host: host)
      settings.transport = counter
      return (Firestore(projectID: PeerDataset.project, settings: settings), counter)
    }
    let (feedDB, feedCounter) = client()
    let (seedDB, seedCounter) = client()
    var feedWalk = Walk()
    var seedWalk = Walk()
    let feedTimes = try await Measurement.run(warmup: 2, reps: options.runs(10)) {
      feedWalk = try await walkFeed(feedDB, feedCounter)
    }
    let seedTimes = try await Measurement.run(warmup: 2, reps: options.runs(10)) {
      seedWalk = try await walkOnePerArticle(seedDB, seedCounter)
    }
    let walkText = "\(pages) list pages of \(batchSize), open #\(openedIndex), \(swipes) swipes"
    var feed = BenchResult(scenario: "reader", label: "ArticleFeed + ArticleNavigator: " + walkText, measurement: feedTimes)
    feed.add("round_trips", .integer(feedWalk.roundTrips))
    feed.add("docs_read", .integer(feedWalk.documentsRead))
    feed.add("bytes_received", .integer(feedWalk.bytesReceived))
    feed.add("round_trip_ratio", .number(Double(seedWalk.roundTrips) / Double(feedWalk.roundTrips)))
    feed.add("id_list_bytes", .integer(feedWalk.listBytes))
    feed.add("full_list_bytes", .integer(seedWalk.listBytes))
    feed.add("id_list_fraction", .number(Double(feedWalk.listBytes) / Double(seedWalk.listBytes)))
    var seed = BenchResult(
      scenario: "reader.per-article", label: "one getDocument per article: " + walkText, measurement: seedTimes)
    seed.add("round_trips", .integer(seedWalk.roundTrips))
    seed.add("docs_read", .integer(seedWalk.documentsRead))
    seed.add("bytes_received", .integer(seedWalk.bytesReceived))
    return [feed, seed]
  }

  /// The walk with the repositories layer.
  static func walkFeed(_ db: Firestore, _ counter: CountingTransport) async throws -> Walk {
    let start = counter.totals
    let feed = try ArticleFeed(firestore: db, filter: .category(PeerDataset.category), collection: "articles", batchSize: batchSize)
    try await feed.load()
    var walk = Walk()
    walk.listBytes = counter.totals.since(start).bytesReceived
    let ids = await feed.orderedIDs
    try PeerDataset.expect(ids.count, 400, "reader: IDs in the feed")
    for _ in 0..<pages { try await feed.loadNextBatch() }
    let navigator = await feed.navigator(startingAt: ids[openedIndex])
    guard try await navigator.current()?.article != nil else { throw ToolFailure("reader: article #\(openedIndex) is missing") }
    for _ in 0..<swipes {
      guard let entry = try await navigator.next(), entry.article != nil else { throw ToolFailure("reader: a swipe found no article") }
    }
    await feed.waitForPendingReads()
    let totals = counter.totals.since(start)
    let statistics = await feed.statistics
    walk.roundTrips = totals.requests
    walk.bytesReceived = totals.bytesReceived
    walk.documentsRead = statistics.idsRead + statistics.documentsRead
    return walk
  }

  /// The same walk, one `getDocument` per article.
  static func walkOnePerArticle(_ db: Firestore, _ counter: CountingTransport) async throws -> Walk {
    let start = counter.totals
    let articles = db.collection("articles")
    let snapshot = try await ArticleFilter.category(PeerDataset.category).query(in: articles).getDocuments(source: .server)
    var walk = Walk()
    walk.listBytes = counter.totals.since(start).bytesReceived
    let ids = snapshot.documents.map(\.documentID)
    try PeerDataset.expect(ids.count, 400, "reader: IDs of the full query")
    var read = ids.count
    var cache: [String: Article] = [:]
    // fetchArticles(for:): the uncached IDs of the batch, one get each, all at once.
    func load(batchAt index: Int) async throws {
      let first = index / batchSize * batchSize
      let uncached = ids[first..<min(first + batchSize, ids.count)].filter { cache[$0] == nil }
      let found = try await withThrowingTaskGroup(of: (String, Article?).self) { group in
        for id in uncached {
          group.addTask {
            let snapshot = try await articles.document(id).getDocument(source: .server)
            return (id, snapshot.exists ? try snapshot.data(as: Article.self) : nil)
          }
        }
        return try await group.reduce(into: [(String, Article?)]()) { $0.append($1) }
      }
      for case (let id, let article?) in found {
        cache[id] = article
        read += 1
      }
    }
    for page in 0..<pages { try await load(batchAt: page * batchSize) }
    for index in openedIndex...(openedIndex + swipes) where cache[ids[index]] == nil {
      try await load(batchAt: index)
      guard cache[ids[index]] != nil else { throw ToolFailure("reader: article #\(index) is missing") }
    }
    let totals = counter.totals.since(start)
    walk.roundTrips = totals.requests
    walk.bytesReceived = totals.bytesReceived
    walk.documentsRead = read
    return walk
  }
}
