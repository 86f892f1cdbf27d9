import FirestoreClient
import FirestoreRepositories
import FirestoreTestSupport
import FirestoreWire
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// ``FavoritesRepository`` under the favorites rules (`Examples/rules/favorites.rules`) on the
/// emulator, in a project of its own, with per-user ID tokens: the repository works for
/// its own user and is refused for anyone else's favorites.
@Suite("Emulator only: favorites repository under the shipped rules", .serialized, .requires(.emulator))
struct FavoritesRulesTests {
  static let projectID = "demo-favrules-\(UInt32.random(in: 0...UInt32.max))"

  /// Loads the shipped rules into this suite's project once per process.
  static let rulesLoaded = Task<Void, any Error> { try await ShippedRules.load(into: projectID) }

  /// A client of the rules project signed in as `uid` (with the admin claim if asked).
  static func user(_ uid: String, admin: Bool = false) async throws -> Firestore {
    try await rulesLoaded.value
    Ledger.record(.emulator)
    let settings = FirestoreSettings.emulator(host: Backend.emulator.host)
    settings.tokenProvider = EmulatorTokenProvider(uid: uid, claims: admin ? ["admin": true] : [:], projectID: projectID)
    settings.timeout = hangLimit
    settings.retryPolicy = .none
    return Firestore(projectID: projectID, settings: settings)
  }

  static func uid(_ name: String) -> String { "\(name)-\(UUID().uuidString.prefix(6))" }

  /// Seeds two meal plans as an admin; returns their collection (`mealPlans`, as the rules name it).
  static func seedPlans() async throws {
    let admin = try await user("root", admin: true)
    try await admin.document("mealPlans/curry").setData(["title": "Curry"])
    try await admin.document("mealPlans/pho").setData(["title": "Pho"])
  }

  @Test("a user stars, lists and unstars their own favorites")
  func ownFavorites() async throws {
    try await Self.seedPlans()
    let a = Self.uid("alice")
    let repository = try FavoritesRepository(firestore: try await Self.user(a), uid: a, itemType: MealPlan.self)
    let lists = SequenceCollector(repository.list())
    defer { lists.cancel() }
    _ = try await lists.wait("the first list") { $0.ids.contains("curry") }
    try await repository.star("curry")
    #expect(try await repository.isStarred("curry"))
    _ = try await lists.wait("the star") { $0.starredItemIDs == ["curry"] && !$0.hasPendingWrites }
    try await repository.unstar("curry")
    _ = try await lists.wait("the unstar") { $0.starredIDs.isEmpty }
  }

  @Test("a user cannot star, read or list another user's favorites")
  func crossUserDenied() async throws {
    try await Self.seedPlans()
    let (a, b) = (Self.uid("alice"), Self.uid("bob"))
    try await FavoritesRepository<MealPlan>(firestore: try await Self.user(b), uid: b).star("pho")
    // Alice's client, pointed at Bob's favorites.
    let intruder = try FavoritesRepository<MealPlan>(firestore: try await Self.user(a), uid: b)
    let star = await #expect(throws: FirestoreError.self) { try await intruder.star("curry") }
    #expect(star?.code == .permissionDenied)
    let unstar = await #expect(throws: FirestoreError.self) { try await intruder.unstar("pho") }
    #expect(unstar?.code == .permissionDenied)
    let read = await #expect(throws: FirestoreError.self) { try await intruder.isStarred("pho") }
    #expect(read?.code == .permissionDenied)
    let lists = SequenceCollector(intruder.list())
    try await eventually("the listener's refusal") { lists.finished }
    #expect((lists.error as? FirestoreError)?.code == .permissionDenied)
    #expect(lists.values.isEmpty)
    // Bob's star is intact.
    #expect(try await FavoritesRepository<MealPlan>(firestore: try await Self.user(b), uid: b).isStarred("pho"))
  }

  @Test("anyone reads meal plans; only the admin claim writes them")
  func mealPlansAdminOnly() async throws {
    try await Self.seedPlans()
    let plain = try await Self.user(Self.uid("carol"))
    #expect(try await plain.document("mealPlans/curry").getDocument().get("title") as? String == "Curry")
    let error = await #expect(throws: FirestoreError.self) { try await plain.document("mealPlans/curry").setData(["title": "Mine"]) }
    #expect(error?.code == .permissionDenied)
    try await Self.user("root", admin: true).document("mealPlans/curry").updateData(["estimatedTime": "40 min"])
  }
}
