import FirestoreClient
import FirestoreRepositories
import FirestoreTestSupport
import Foundation
import Testing

/// ``FavoritesRepository`` on the mock and the emulator: stars in the user's
/// subcollection, and the live merged list from two listeners.
@Suite("Repositories: favorites")
struct FavoritesRepositoryTests {
  typealias Support = RepositoryTestSupport

  /// Fresh meal plans and a fresh user; returns the items' path and the uid.
  static func setUp(_ backend: Backend) async throws -> (String, String) {
    let plans = backend.collection("mealPlans").path
    let batch = backend.db.batch()
    for (id, title) in [("curry", "Curry"), ("pho", "Pho"), ("tacos", "Tacos")] {
      batch.setData(["title": title, "estimatedTime": "30 min"], forDocument: backend.db.collection(plans).document(id))
    }
    _ = try await batch.commit()
    return (plans, "user-\(UUID().uuidString.prefix(8))")
  }

  /// ``setUp(_:)``, and the user's repository on a client of its own, so that its listeners
  /// share no connection with the client that writes as another user would.
  static func setUpOwnClient(_ backend: Backend) async throws -> (String, String, FavoritesRepository<MealPlan>) {
    let (plans, uid) = try await setUp(backend)
    let (db, _) = backend.counted()
    return (plans, uid, try FavoritesRepository(firestore: db, uid: uid, itemsCollection: plans, itemType: MealPlan.self))
  }

  @Test("star, isStarred and unstar write and delete users/{uid}/favorites/{id}", arguments: Backend.all)
  func starAndUnstar(_ backend: Backend) async throws {
    let (plans, uid) = try await Self.setUp(backend)
    let repository = try FavoritesRepository(firestore: backend.db, uid: uid, itemsCollection: plans, itemType: MealPlan.self)
    #expect(try await repository.isStarred("pho") == false)
    try await repository.star("pho")
    try await repository.star("pho")  // twice: still one favorite
    #expect(try await repository.isStarred("pho"))
    let stored = try await backend.db.collection("users/\(uid)/favorites").getDocuments()
    #expect(stored.documents.map(\.documentID) == ["pho"])
    #expect(stored.documents.first?.get("starredAt") is Timestamp)
    try await repository.unstar("pho")
    try await repository.unstar("pho")  // unstarring what is not starred is no error
    #expect(try await repository.isStarred("pho") == false)
    // The public plan was never touched.
    #expect(try await backend.db.collection(plans).document("pho").getDocument().data()?.keys.sorted() == ["estimatedTime", "title"])
    let bad = await #expect(throws: FirestoreError.self) { try await repository.star("a/b") }
    #expect(bad?.code == .invalidArgument)
    #expect(bad?.message.contains("a/b") == true)
    #expect(throws: FirestoreError.self) { try FavoritesRepository<MealPlan>(firestore: backend.db, uid: "") }
  }

  @Test("the merged list follows the user's stars, including one made by another client", arguments: Backend.all)
  func liveMergedList(_ backend: Backend) async throws {
    let (plans, uid, repository) = try await Self.setUpOwnClient(backend)
    let lists = SequenceCollector(repository.list())
    let starred = SequenceCollector(repository.list(starredOnly: true))
    defer {
      lists.cancel()
      starred.cancel()
    }
    // A stream that fails before the server answers (a slow handshake) first shows the
    // empty cache, so the lists to check are the first ones from the server.
    let first = try await lists.wait("the first list from the server") { !$0.isFromCache }
    #expect(first.ids == ["curry", "pho", "tacos"])
    #expect(first.items.map(\.item.title) == ["Curry", "Pho", "Tacos"])
    #expect(first.starredItemIDs.isEmpty)
    #expect(try await starred.wait("the first starred-only list from the server") { !$0.isFromCache }.items.isEmpty)

    // Another client (another device of the same user) stars tacos.
    let other = try FavoritesRepository(firestore: backend.firestore(), uid: uid, itemsCollection: plans, itemType: MealPlan.self)
    try await other.star("tacos")
    let withTacos = try await lists.wait("the other client's star") { $0.starredItemIDs == ["tacos"] }
    #expect(withTacos.items.first { $0.id == "tacos" }?.isPending == false)
    #expect(try await starred.wait("tacos in the starred-only list") { $0.ids == ["tacos"] }.items.first?.item.title == "Tacos")

    // A new public plan shows up unstarred; a plan removed from the public list disappears.
    try await backend.db.collection(plans).document("dal").setData(["title": "Dal"])
    _ = try await lists.wait("the new plan") { $0.ids == ["curry", "dal", "pho", "tacos"] }
    try await other.unstar("tacos")
    _ = try await lists.wait("the unstar") { $0.starredIDs.isEmpty }
    _ = try await starred.wait("the empty starred-only list") { $0.items.isEmpty }
  }

  @Test("offline, the list is the cache's and says so; back online, it is the server's", arguments: Backend.all)
  func fromCache(_ backend: Backend) async throws {
    let (plans, uid) = try await Self.setUp(backend)
    let (db, _) = backend.counted()
    try await db.disableNetwork()
    let repository = try FavoritesRepository(firestore: db, uid: uid, itemsCollection: plans, itemType: MealPlan.self)
    let lists = SequenceCollector(repository.list())
    defer { lists.cancel() }
    let offline = try await lists.wait("the list from the cache") { _ in true }
    #expect(offline.isFromCache)
    #expect(offline.items.isEmpty)
    try await db.enableNetwork()
    let online = try await lists.wait("the server's list") { !$0.isFromCache }
    #expect(online.ids == ["curry", "pho", "tacos"])
    #expect(online.starredIDs.isEmpty)
  }

  @Test("with latency compensation a star shows at once, pending until the server confirms it", arguments: Backend.all)
  func latencyCompensation(_ backend: Backend) async throws {
    let (_, _, repository) = try await Self.setUpOwnClient(backend)
    let lists = SequenceCollector(repository.list())
    defer { lists.cancel() }
    // The first list may come before the items do (from the cache, empty): the star is
    // shown on an item once the item is listed.
    _ = try await lists.wait("the items") { $0.ids.contains("curry") }
    // The star shows before anything is sent, so however fast the server answers, the
    // first list with it is pending. (A latency fault here would hold up whichever test's
    // commit reached the shared mock first.)
    let before = lists.values.count
    let starring = Task { try await repository.star("curry") }
    _ = try await lists.wait("the local star") { $0.starredIDs.contains("curry") }
    let firstWithStar = try #require(lists.values.dropFirst(before).first { $0.starredIDs.contains("curry") })
    #expect(firstWithStar.hasPendingWrites)
    #expect(firstWithStar.items.first { $0.id == "curry" }?.isPending == true)
    try await starring.value
    let confirmed = try await lists.wait("the confirmation") { !$0.hasPendingWrites && $0.starredItemIDs == ["curry"] }
    #expect(confirmed.items.first { $0.id == "curry" }?.isPending == false)
  }
}
