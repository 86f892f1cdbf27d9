import FirestoreClient
import FirestoreRepositories
import Foundation

/// The `firestore demo` scenario, end to end against one database: seeds sample data,
/// pages the article feed and walks its detail navigator, changes the filter, scrolls a
/// simulated list whose visibility events prefetch, loads a profile through its three
/// states, and stars and unstars meal plans while the live merged list updates — printing
/// what happens and measuring the feed walk against the naive one-get-per-article approach
/// on the same walk.
///
/// The sample data lives in its own collections (`demoArticles`, `demoMealPlans`, and the
/// users `demo-reader`/`demo-nobody`) with fixed IDs, so running it again overwrites rather
/// than duplicates. Round trips and bytes are counted by a ``CountingTransport`` around
/// `settings.transport` (or ``FirestoreClient/FirestoreSettings/defaultTransport``).
///
/// ```swift
/// let report = try await DemoRunner(projectID: "demo-project", settings: .emulator(host: "127.0.0.1:8080"))
///   .run { print($0) }
/// print(report.summary)
/// ```
public struct DemoRunner: Sendable {
  /// The project the demo writes to.
  public let projectID: String
  /// The settings every client of the demo starts from.
  public let settings: FirestoreSettings
  /// The feed's batch size.
  public var batchSize = 20

  /// Creates a runner for `projectID` with `settings` (host, credentials, transport).
  public init(projectID: String, settings: FirestoreSettings) {
    self.projectID = projectID
    self.settings = FirestoreSettings(copying: settings)
  }

  /// Runs every scenario, writing a line to `output` for each thing that happens, and
  /// returns the measurements.
  ///
  /// - Throws: the first read or write that fails, or `deadlineExceeded` when a live update
  ///   the demo waits for does not arrive within 20 seconds.
  public func run(output: @escaping @Sendable (String) -> Void) async throws -> DemoReport {
    let base = settings.transport ?? FirestoreSettings.defaultTransport
    let counter = CountingTransport(wrapping: base)
    let counted = FirestoreSettings(copying: settings)
    counted.transport = counter
    let db = Firestore(projectID: projectID, settings: counted)
    // Writes that stage the scenario (a deletion, a star from "another device") go through
    // a client of their own, so they never count against the feed.
    let admin = Firestore(projectID: projectID, settings: settings)

    output("== seeding sample data into project \(projectID) (\(DemoData.articleCount) articles, \(DemoData.plans.count) meal plans)")
    try await DemoData.seed(admin)

    var (report, walk) = try await walkFeed(db: db, admin: admin, counter: counter, output: output)
    try await DemoData.seed(admin)  // puts the deleted article back: the seed's walk reads the same 60
    report.onePerArticle = try await walkOnePerArticle(walk: walk, output: output)
    output("")
    output(report.summary)
    try await filterAndScroll(db: db, output: output)
    report.profileStates = try await profiles(output: output)
    report.favoritesUpdates = try await favorites(db: db, admin: admin, output: output)
    output("== done")
    return report
  }

  // MARK: Articles

  private func walkFeed(db: Firestore, admin: Firestore, counter: CountingTransport, output: @Sendable (String) -> Void) async throws
    -> (DemoReport, walk: [Int])
  {
    output("")
    output("== article feed: category == swift, newest first, batches of \(batchSize)")
    let feed = try ArticleFeed(firestore: db, filter: .category("swift"), collection: DemoData.articles, batchSize: batchSize)
    let start = counter.totals
    try await feed.load()
    let ids = await feed.orderedIDs
    output("ID list: \(ids.count) IDs in 1 query with select(__name__), \(counter.totals.since(start).bytesReceived) bytes")

    // Deleted by someone else after the IDs were read: the walk must report it, not crash.
    let doomed = ids.count > 47 ? ids[47] : ids.last
    if let doomed {
      try await admin.collection(DemoData.articles).document(doomed).delete()
      output("(meanwhile another client deletes \(doomed))")
    }

    let page = try await feed.loadNextBatch()
    output("list page 1: \(page.count) articles in 1 batchGet, first \"\(page.first?.article?.title ?? "-")\"")

    let navigator = await feed.navigator(startingAt: page.first?.id)
    var walk: [Int] = []
    var missing = 0
    if let first = try await navigator.current() { walk.append(first.index) }
    var batchesSeen = await feed.statistics.batchRequests
    while let entry = try await navigator.next() {
      walk.append(entry.index)
      if entry.isMissing {
        missing += 1
        output("  #\(entry.index) \(entry.id): deleted since the ID list was read, reported missing")
      }
      let batches = await feed.statistics.batchRequests
      if batches > batchesSeen {
        output("  by #\(entry.index): the next batch was prefetched (\(batches) batchGets so far)")
        batchesSeen = batches
      }
    }
    output("detail navigator: walked #0 → #\(walk.last ?? 0), next() at the end returns nil")
    for _ in 0..<3 {
      if let entry = try await navigator.previous() { walk.append(entry.index) }
    }
    output("previous() ×3 → #\(await navigator.index), from the cache")
    await feed.waitForPendingReads()

    let totals = counter.totals.since(start)
    let stats = await feed.statistics
    let cost = ApproachCost(
      roundTrips: totals.requests, documentsRead: stats.idsRead + stats.documentsRead, bytesReceived: totals.bytesReceived)
    output(
      "ArticleFeed: \(stats.idQueries) ID query + \(stats.batchRequests) batchGets = \(cost.roundTrips) round trips, \(cost.bytesReceived) bytes"
    )
    let report = DemoReport(
      articlesWalked: walk.count, batchSize: batchSize, feed: cost,
      onePerArticle: ApproachCost(roundTrips: 0, documentsRead: 0, bytesReceived: 0),
      missingArticles: missing)
    return (report, walk)
  }

  /// The naive reader on the same walk: a full query for the IDs, then for
  /// each batch one `getDocument` per uncached article.
  private func walkOnePerArticle(walk: [Int], output: @Sendable (String) -> Void) async throws -> ApproachCost {
    let counter = CountingTransport(wrapping: settings.transport ?? FirestoreSettings.defaultTransport)
    let naiveSettings = FirestoreSettings(copying: settings)
    naiveSettings.transport = counter
    naiveSettings.cache = .none
    let db = Firestore(projectID: projectID, settings: naiveSettings)
    let snapshot = try await ArticleFilter.category("swift").query(in: db.collection(DemoData.articles)).getDocuments(source: .server)
    let ids = snapshot.documents.map(\.documentID)
    var documentsRead = snapshot.count
    var cache: [String: Article] = [:]
    for index in walk where ids.indices.contains(index) && cache[ids[index]] == nil {
      let start = index / batchSize * batchSize
      let uncached = ids[start..<min(start + batchSize, ids.count)].filter { cache[$0] == nil }
      let found = try await withThrowingTaskGroup(of: (String, Article?).self) { group in
        for id in uncached {
          group.addTask {
            let snapshot = try await db.collection(DemoData.articles).document(id).getDocument(source: .server)
            return (id, snapshot.exists ? try snapshot.data(as: Article.self) : nil)
          }
        }
        return try await group.reduce(into: [(String, Article?)]()) { $0.append($1) }
      }
      for (id, article) in found {
        if let article {
          cache[id] = article
          documentsRead += 1
        }
      }
    }
    let totals = counter.totals
    output("one get per article: \(totals.requests) round trips, \(totals.bytesReceived) bytes")
    return ApproachCost(roundTrips: totals.requests, documentsRead: documentsRead, bytesReceived: totals.bytesReceived)
  }

  private func filterAndScroll(db: Firestore, output: @Sendable (String) -> Void) async throws {
    output("")
    output("== filter change and a scrolling list")
    let feed = try ArticleFeed(firestore: db, filter: .category("swift"), collection: DemoData.articles, batchSize: batchSize)
    try await feed.load()
    let navigator = await feed.navigator()
    _ = try await navigator.move(to: 12)
    try await feed.setFilter(.category("server"))
    output("filter → category == server: \(await feed.count) IDs, navigator back at #\(await navigator.index)")

    _ = try await feed.loadNextBatch()
    var tracker = VisibilityTracker<String>()
    let ids = await feed.orderedIDs
    let rowHeight = 100.0
    let viewport = 800.0
    var batches = await feed.statistics.batchRequests
    for offset in stride(from: 0.0, through: Double(ids.count) * rowHeight - viewport, by: 200) {
      let view = VisibilitySpan(start: offset, end: offset + viewport)
      let listed = await feed.state.listedCount
      let frames = ids.prefix(listed).enumerated().map {
        (id: $0.element, frame: VisibilitySpan(start: Double($0.offset) * rowHeight, end: Double($0.offset + 1) * rowHeight))
      }
      for event in tracker.update(frames: frames, viewport: view) {
        await feed.handle(event)
      }
      await feed.waitForPendingReads()
      let shown = tracker.presented.compactMap { ids.firstIndex(of: $0) }.sorted()
      var now = await feed.statistics.batchRequests
      if now > batches {
        output("scrolled to \(Int(offset)): rows #\(shown.first ?? 0)-#\(shown.last ?? 0) visible, prefetched the batch after them")
        batches = now
      }
      // The list reaches its last row: page on, which the prefetch already paid for.
      if let last = shown.last, last + 1 >= listed, await feed.hasMoreToList {
        let page = try await feed.loadNextBatch()
        now = await feed.statistics.batchRequests
        output("scrolled to \(Int(offset)): list paged to \(page.count) rows, \(now == batches ? "all from the cache" : "with a batchGet")")
        batches = now
      }
    }
    output("\(await feed.state.cachedCount) articles cached after scrolling, \(await feed.statistics.batchRequests) batchGets")
  }

  // MARK: Profile

  private func profiles(output: @Sendable (String) -> Void) async throws -> [String] {
    output("")
    output("== profile of \(DemoData.readerUID): cache first, then the server")
    // A fresh client, as after an app start: its cache is empty.
    let viewer = Firestore(projectID: projectID, settings: settings)
    let reader = try UserProfileRepository(firestore: viewer, uid: DemoData.readerUID)
    var seen: [String] = []
    func describe(_ state: LoadState<UserProfile>) -> String {
      switch state {
      case .loading(nil): return "loading"
      case .loading(let cached?): return "loading(cached: \(cached.name))"
      case .loaded(let profile): return "loaded(\(profile.name), height \(profile.height), weight \(profile.weight))"
      case .failed(let error): return "failed(\(error.code.statusName))"
      }
    }
    for (label, repository) in [("first open", reader), ("second open", reader)] {
      var line: [String] = []
      for await state in repository.profile() { line.append(describe(state)) }
      seen += line
      output("\(label): " + line.joined(separator: " → "))
    }
    let email = await lastState(reader.privateInfo()).value?.email ?? "-"
    output("private info: \(email)")
    var line: [String] = []
    for await state in try UserProfileRepository(firestore: viewer, uid: DemoData.absentUID).profile() { line.append(describe(state)) }
    seen += line
    output("\(DemoData.absentUID): " + line.joined(separator: " → ") + "  (failed only once nothing is in flight)")
    return seen
  }

  private func lastState<T>(_ stream: AsyncStream<LoadState<T>>) async -> LoadState<T> {
    var last = LoadState<T>.loading(cached: nil)
    for await state in stream { last = state }
    return last
  }

  // MARK: Favorites

  private func favorites(db: Firestore, admin: Firestore, output: @escaping @Sendable (String) -> Void) async throws -> Int {
    output("")
    output("== favorites of \(DemoData.readerUID): users/\(DemoData.readerUID)/favorites, merged live with \(DemoData.mealPlans)")
    let repository = try FavoritesRepository(
      firestore: db, uid: DemoData.readerUID, itemsCollection: DemoData.mealPlans, itemType: MealPlan.self)
    let recorder = ListRecorder()
    let listening = Task {
      do {
        for try await list in repository.list() { recorder.record(list) }
      } catch {
        recorder.fail(error)
      }
    }
    defer { listening.cancel() }
    func show(_ list: FavoritesList<MealPlan>) -> String {
      list.items.map { "\($0.item.title)\($0.isStarred ? ($0.isPending ? " ★(pending)" : " ★") : "")" }.joined(separator: ", ")
    }

    // The first list can come from the (empty) cache while the listen is still connecting.
    var list = try await recorder.wait("the meal plans") { !$0.isFromCache }
    output("list: " + show(list))

    var seen = recorder.count
    let starring = Task { try await repository.star("lasagna") }
    list = try await recorder.wait("the local star", from: seen) { $0.starredIDs.contains("lasagna") }
    output("star(lasagna), first list showing it: " + show(list))
    try await starring.value
    list = try await recorder.wait("the confirmed star", from: seen) {
      $0.items.contains { $0.id == "lasagna" && $0.isStarred && !$0.isPending }
    }
    output("server confirmed: " + show(list))

    let otherDevice = try FavoritesRepository(
      firestore: admin, uid: DemoData.readerUID, itemsCollection: DemoData.mealPlans, itemType: MealPlan.self)
    seen = recorder.count
    try await otherDevice.star("pho")
    list = try await recorder.wait("the other device's star", from: seen) { $0.starredIDs.contains("pho") }
    output("another device starred pho: " + show(list))

    var starredOnly: FavoritesList<MealPlan>?
    for try await only in repository.list(starredOnly: true) where only.starredIDs.contains("pho") {
      starredOnly = only
      break
    }
    output("starred only: " + (starredOnly?.items.map(\.item.title).joined(separator: ", ") ?? "-"))
    output("isStarred(pho) = \(try await repository.isStarred("pho")), isStarred(dal) = \(try await repository.isStarred("dal"))")

    seen = recorder.count
    try await repository.unstar("lasagna")
    try await repository.unstar("pho")
    list = try await recorder.wait("both unstars", from: seen) { $0.starredIDs.isEmpty }
    output("unstarred both: " + show(list))
    return recorder.count
  }
}
