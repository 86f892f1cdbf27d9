import FirestoreMock
import FirestoreTestSupport
import FirestoreWire
import Foundation
import Synchronization
import Testing

@testable import FirestoreClient

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The favorites security rules, as shipped in `Examples/rules/favorites.rules`, loaded into
/// the emulator for a project of their own and checked with the client's auth providers.
/// Emulator only: the mock does not evaluate rules.
///
/// Serialized: with two listen streams of one rules-protected project evaluated at once,
/// the emulator was seen to hold a listen request for 30 s.
@Suite("Emulator only: security rules (favorites)", .serialized, .requires(.emulator))
struct SecurityRulesTests {
  /// Rules are per project: this one is used by these tests alone.
  static let projectID = "demo-rules-\(UInt32.random(in: 0...UInt32.max))"

  /// The shipped rules file.
  static let rulesPath = ShippedRules.path

  /// Loads the shipped rules into this suite's project once per process.
  static let rulesLoaded = Task<Void, any Error> { try await ShippedRules.load(into: projectID) }

  /// A client of the rules project with `provider`'s tokens (`nil`: unauthenticated).
  static func client(_ provider: (any TokenProvider)?) async throws -> Firestore {
    try await rulesLoaded.value
    Ledger.record(.emulator)
    let settings = FirestoreSettings.emulator(host: Backend.emulator.host)
    settings.tokenProvider = provider
    settings.timeout = hangLimit
    return Firestore(projectID: projectID, settings: settings)
  }

  static func user(_ uid: String, admin: Bool = false) async throws -> Firestore {
    try await client(EmulatorTokenProvider(uid: uid, claims: admin ? ["admin": true] : [:], projectID: projectID))
  }

  /// Fresh user IDs per test, so tests never share documents.
  static func uid(_ name: String) -> String { "\(name)-\(AutoID.make().prefix(6))" }

  /// Runs `body`, which must fail with PERMISSION_DENIED.
  static func expectDenied(_ what: String, sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Void) async {
    do {
      try await body()
      Issue.record("\(what) was allowed", sourceLocation: sourceLocation)
    } catch let error as FirestoreError {
      #expect(error.code == .permissionDenied, "\(what): \(error)", sourceLocation: sourceLocation)
    } catch {
      Issue.record("\(what) failed with \(error)", sourceLocation: sourceLocation)
    }
  }

  @Test("the shipped rules file is the one loaded")
  func rulesFile() throws {
    let text = try String(contentsOfFile: Self.rulesPath, encoding: .utf8)
    #expect(text.contains("match /users/{userID}/favorites/{planID}"))
    #expect(text.contains("request.auth.token.admin == true"))
  }

  @Test("user A reads and writes A's favorites")
  func ownFavorites() async throws {
    let a = Self.uid("alice")
    let db = try await Self.user(a)
    let favorite = db.document("users/\(a)/favorites/plan1")
    try await favorite.setData(["starredAt": Timestamp(seconds: 1_700_000_000, nanoseconds: 0)])
    #expect(try await favorite.getDocument().exists)
    #expect(try await db.collection("users/\(a)/favorites").getDocuments().documents.map(\.documentID) == ["plan1"])
    try await favorite.delete()
    #expect(try await favorite.getDocument().exists == false)
  }

  @Test("A cannot read or write B's favorites")
  func othersFavorites() async throws {
    let (a, b) = (Self.uid("alice"), Self.uid("bob"))
    try await Self.user(b).document("users/\(b)/favorites/plan1").setData(["starredAt": 1])
    let db = try await Self.user(a)
    await Self.expectDenied("A reading B's favorite") { _ = try await db.document("users/\(b)/favorites/plan1").getDocument() }
    await Self.expectDenied("A listing B's favorites") { _ = try await db.collection("users/\(b)/favorites").getDocuments() }
    await Self.expectDenied("A writing B's favorites") { try await db.document("users/\(b)/favorites/plan2").setData(["x": 1]) }
    await Self.expectDenied("A deleting B's favorite") { try await db.document("users/\(b)/favorites/plan1").delete() }
    // B's data is untouched.
    #expect(try await Self.user(b).collection("users/\(b)/favorites").getDocuments().documents.map(\.documentID) == ["plan1"])
  }

  @Test("an unauthenticated client cannot write, and reads only meal plans")
  func unauthenticated() async throws {
    let a = Self.uid("alice")
    let plan = "plan-\(AutoID.make().prefix(6))"
    try await Self.user("root", admin: true).document("mealPlans/\(plan)").setData(["title": "Pasta"])
    let db = try await Self.client(nil)
    await Self.expectDenied("an unauthenticated favorite write") { try await db.document("users/\(a)/favorites/p").setData(["x": 1]) }
    await Self.expectDenied("an unauthenticated meal plan write") { try await db.document("mealPlans/\(plan)").setData(["title": "X"]) }
    await Self.expectDenied("an unauthenticated favorites read") { _ = try await db.document("users/\(a)/favorites/p").getDocument() }
    #expect(try await db.document("mealPlans/\(plan)").getDocument().get("title") as? String == "Pasta")
  }

  @Test("meal plans are readable by anyone and writable only with the admin claim")
  func mealPlans() async throws {
    let plan = "plan-\(AutoID.make().prefix(6))"
    let admin = try await Self.user(Self.uid("chef"), admin: true)
    try await admin.document("mealPlans/\(plan)").setData(["title": "Soup"])
    let user = try await Self.user(Self.uid("alice"))
    #expect(try await user.document("mealPlans/\(plan)").getDocument().get("title") as? String == "Soup")
    #expect(try await Self.client(nil).collection("mealPlans").getDocuments().documents.contains { $0.documentID == plan })
    await Self.expectDenied("a user without the admin claim writing a meal plan") {
      try await user.document("mealPlans/\(plan)").updateData(["title": "Mine"])
    }
    let notAdmin = try await Self.client(EmulatorTokenProvider(uid: Self.uid("eve"), claims: ["admin": "true"]))
    await Self.expectDenied("admin claim as the string \"true\"") { try await notAdmin.document("mealPlans/\(plan)").delete() }
    try await admin.document("mealPlans/\(plan)").updateData(["title": "Soup 2"])
    #expect(try await user.document("mealPlans/\(plan)").getDocument().get("title") as? String == "Soup 2")
  }

  @Test("a listener of A on B's favorites fails with permissionDenied; A's other listeners go on")
  func deniedListenerIsolated() async throws {
    let (a, b) = (Self.uid("alice"), Self.uid("bob"))
    let plan = "plan-\(AutoID.make().prefix(6))"
    let admin = try await Self.user(Self.uid("chef"), admin: true)
    try await admin.document("mealPlans/\(plan)").setData(["title": "Tacos"])
    try await Self.user(b).document("users/\(b)/favorites/secret").setData(["x": 1])
    let db = try await Self.user(a)
    try await db.document("users/\(a)/favorites/first").setData(["x": 1])

    let own = SequenceCollector(db.collection("users/\(a)/favorites").snapshots)
    let meal = SequenceCollector(db.document("mealPlans/\(plan)").snapshots)
    #expect(try await own.next().documents.map(\.documentID) == ["first"])
    #expect(try await meal.nextFromServer().get("title") as? String == "Tacos")

    let denied = SequenceCollector(db.collection("users/\(b)/favorites").snapshots)
    let error = try await denied.failure(timeout: .seconds(60)) as? FirestoreError
    #expect(error?.code == .permissionDenied, "\(String(describing: error))")
    #expect(error?.message.contains("query on users/\(b)/favorites") == true, "\(String(describing: error))")
    let deniedDocument = SequenceCollector(db.document("users/\(b)/favorites/secret").snapshots)
    let documentError = try await deniedDocument.failure(timeout: .seconds(60)) as? FirestoreError
    let handshakes = await db.listenManager.handshakeCount
    #expect(
      documentError?.code == .permissionDenied,
      "\(String(describing: documentError)); \(deniedDocument.pending) snapshots instead; \(handshakes) handshakes")
    #expect(documentError?.message.contains("document users/\(b)/favorites/secret") == true)

    // The same instance's other listeners still receive changes.
    try await db.document("users/\(a)/favorites/second").setData(["x": 2])
    var ids: [String] = []
    while ids != ["first", "second"] { ids = try await own.next().documents.map(\.documentID) }
    try await admin.document("mealPlans/\(plan)").updateData(["title": "Tacos al pastor"])
    var title: String?
    while title != "Tacos al pastor" { title = try await meal.next().get("title") as? String }
    own.cancel()
    meal.cancel()
  }

  /// A mock Auth server with two users, and a provider signed in as the first.
  static func aliceAndBob() async throws -> (MockAuthServer, alice: String, bob: String, FirebaseAuthTokenProvider) {
    let authServer = try MockAuthServer.start(firebaseProjectID: Self.projectID)
    let (a, b) = (Self.uid("alice"), Self.uid("bob"))
    authServer.addUser(email: "\(a)@example.com", password: "alice-password", uid: a)
    authServer.addUser(email: "\(b)@example.com", password: "bob-password", uid: b)
    let auth = FirebaseAuthTokenProvider(apiKey: authServer.apiKey, emulatorHost: authServer.hostAndPort)
    try await auth.signIn(withEmail: "\(a)@example.com", password: "alice-password")
    return (authServer, a, b, auth)
  }

  @Test("Firebase Auth sign-in (mock Auth server) is subject to the rules; a new user re-handshakes the listen channel")
  func firebaseAuthSignIn() async throws {
    let (authServer, a, b, auth) = try await Self.aliceAndBob()
    defer { authServer.stop() }
    let db = try await Self.client(auth)
    #expect(db.projectID == Self.projectID)
    try await db.document("users/\(a)/favorites/p1").setData(["x": 1])
    await Self.expectDenied("alice writing bob's favorites") { try await db.document("users/\(b)/favorites/p1").setData(["x": 1]) }

    // Snapshots from the server only: the local cache shows the documents just written
    // before the channel is even open.
    let alices = SequenceCollector(db.collection("users/\(a)/favorites").snapshots(includeMetadataChanges: true))
    let aliceSnapshot = try await alices.nextFromServer()
    #expect(aliceSnapshot.documents.map(\.documentID) == ["p1"])
    let handshakes = await db.listenManager.handshakeCount

    // Another user signs in on the same provider: the next listen request notices the new
    // token and opens a new channel with it, re-adding every target under bob's identity.
    await auth.signOut()
    try await auth.signIn(withEmail: "\(b)@example.com", password: "bob-password")
    try await db.document("users/\(b)/favorites/p2").setData(["x": 2])
    let bobs = SequenceCollector(db.collection("users/\(b)/favorites").snapshots(includeMetadataChanges: true))
    let bobSnapshot = try await bobs.nextFromServer()
    #expect(bobSnapshot.documents.map(\.documentID) == ["p2"])
    #expect(await db.listenManager.handshakeCount > handshakes)
    // Alice's listener, now re-added with bob's token, is refused by the rules.
    var aliceError: (any Error)?
    while aliceError == nil {
      do { _ = try await alices.next() } catch { aliceError = error }
    }
    #expect((aliceError as? FirestoreError)?.code == .permissionDenied, "\(String(describing: aliceError))")
    bobs.cancel()
  }

  @Test("another user's sign-in alone reopens the listen with that user's token: the first user's listener is refused")
  func signInReopensListens() async throws {
    let (authServer, a, b, auth) = try await Self.aliceAndBob()
    defer { authServer.stop() }
    let db = try await Self.client(auth)
    try await db.document("users/\(a)/favorites/p1").setData(["x": 1])
    let alices = SequenceCollector(db.collection("users/\(a)/favorites").snapshots(includeMetadataChanges: true))
    #expect(try await alices.nextFromServer().documents.map(\.documentID) == ["p1"])
    let handshakes = await db.listenManager.handshakeCount

    // No call of this instance follows: the provider's announcement is what it hears.
    try await auth.signIn(withEmail: "\(b)@example.com", password: "bob-password")
    let error = try await alices.failure(timeout: .seconds(60)) as? FirestoreError
    #expect(error?.code == .permissionDenied, "\(String(describing: error))")
    #expect(await db.listenManager.handshakeCount > handshakes)
    alices.cancel()
    try await db.terminate()
  }

  /// Whether the favorite exists, as the server (read with the rules bypassed) says.
  static func exists(_ path: String) async throws -> Bool {
    let owner = try await client(StaticTokenProvider.emulatorOwner)
    defer { Task { try? await owner.terminate() } }
    return try await owner.document(path).getDocument(source: .server).exists
  }

  @Test("queued writes go with their own user's token: a sign-out and another sign-in hold them back until the user is back")
  func queuedWritesKeepTheirUser() async throws {
    let (authServer, a, b, auth) = try await Self.aliceAndBob()
    defer { authServer.stop() }
    let db = try await Self.client(auth)

    // Offline, Alice stars a plan and signs out; Bob signs in and stars one.
    try await db.disableNetwork()
    Self.queue(db.document("users/\(a)/favorites/p1"))
    await auth.signOut()
    try await auth.signIn(withEmail: "\(b)@example.com", password: "bob-password")
    Self.queue(db.document("users/\(b)/favorites/p2"))
    try await db.enableNetwork()
    try await db.waitForPendingWrites()
    #expect(try await Self.exists("users/\(b)/favorites/p2"))
    // Sent with Bob's token, the rules would have refused Alice's write and it would be gone.
    #expect(try await !Self.exists("users/\(a)/favorites/p1"))

    // Online, Alice signs back in: her write goes, with her token.
    await auth.signOut()
    try await auth.signIn(withEmail: "\(a)@example.com", password: "alice-password")
    try await db.waitForPendingWrites()
    #expect(try await Self.exists("users/\(a)/favorites/p1"))
    try await db.terminate()
  }

  @Test("a persistent cache's queued writes are sent by the next instance of their user, not by another user's")
  func queuedWritesAcrossInstances() async throws {
    let (a, b) = (Self.uid("alice"), Self.uid("bob"))
    let directory = try makeTemporaryDirectory("firestore-rules-cache")
    defer { try? FileManager.default.removeItem(at: directory) }
    func instance(_ uid: String) async throws -> Firestore {
      try await Self.rulesLoaded.value
      Ledger.record(.emulator)
      let settings = FirestoreSettings.emulator(host: Backend.emulator.host)
      settings.tokenProvider = EmulatorTokenProvider(uid: uid, projectID: Self.projectID)
      settings.cache = .persistent(directory: directory)
      settings.timeout = hangLimit
      return Firestore(projectID: Self.projectID, settings: settings)
    }
    let alice = try await instance(a)
    try await alice.disableNetwork()
    Self.queue(alice.document("users/\(a)/favorites/p1"))
    try await alice.terminate()

    let bob = try await instance(b)
    try await bob.document("users/\(b)/favorites/p2").setData(["starredAt": Timestamp(seconds: 1_700_000_000, nanoseconds: 0)])
    try await bob.waitForPendingWrites()
    try await bob.terminate()
    #expect(try await !Self.exists("users/\(a)/favorites/p1"))

    let aliceAgain = try await instance(a)
    try await aliceAgain.waitForPendingWrites()
    #expect(try await Self.exists("users/\(a)/favorites/p1"))
    try await aliceAgain.terminate()
  }

  /// Stars a plan without waiting for the server, as synchronous code does.
  static func queue(_ favorite: DocumentReference) {
    favorite.setData(["starredAt": Timestamp(seconds: 1_700_000_000, nanoseconds: 0)])
  }
}
