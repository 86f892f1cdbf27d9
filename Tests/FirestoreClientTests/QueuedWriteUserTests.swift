import FirestoreMock
import FirestorePlatform
import FirestoreTestSupport
import FirestoreWire
import Foundation
import Testing

@testable import FirestoreClient

/// Queued writes belong to the user who made them, as in the Apple SDK: they are sent only
/// with that user's token, and wait (hidden from the listeners) while another user, or
/// nobody, is signed in — within one instance and across instances sharing a cache file.
/// The mock's request log says which token carried each commit.
@Suite("Queued writes keep their user")
struct QueuedWriteUserTests {
  /// An ID token for `uid`, as the switching provider sends it.
  static func token(_ uid: String) -> String {
    JWT.unsigned(claims: .object([("sub", .string(uid)), ("user_id", .string(uid))]))
  }

  /// The commits of `project` the server answered, by the token each carried (`""` for
  /// none).
  static func commits(_ server: MockFirestoreServer, project: String) -> [String] {
    server.requestLog.entries.filter { $0.method == "POST" && $0.path.hasSuffix("/documents:commit") && $0.path.contains(project) }
      .map { entry in
        let header = entry.headers.first { $0.name == "authorization" }?.value ?? ""
        return header.hasPrefix("Bearer ") ? String(header.dropFirst(7)) : header
      }
  }

  static func client(
    _ server: MockFirestoreServer, project: String, provider: any TokenProvider, cache: LocalCacheSettings = .memory()
  ) -> Firestore {
    let settings = FirestoreSettings.emulator(host: server.hostAndPort)
    settings.tokenProvider = provider
    settings.cache = cache
    settings.timeout = hangLimit
    return Firestore(projectID: project, settings: settings)
  }

  /// A mock server, and an instance on it whose switching provider (announcing its users or
  /// not) has Alice signed in.
  static func aliceOnMock(announces: Bool) throws -> (MockFirestoreServer, SwitchingTokenProvider, Firestore) {
    let server = try MockFirestoreServer.start()
    let provider = SwitchingTokenProvider(announces: announces) { Self.token($0) }
    provider.signIn("alice")
    return (server, provider, client(server, project: "demo-users-\(UInt32.random(in: 0...UInt32.max))", provider: provider))
  }

  /// Queues a write without waiting for the server, as synchronous code does.
  static func queue(_ document: DocumentReference, by user: String) {
    document.setData(["by": user])
  }

  static func serverFields(_ server: MockFirestoreServer, project: String, _ path: String) async throws -> [String: Any]? {
    let owner = client(server, project: project, provider: StaticTokenProvider.emulatorOwner, cache: .none)
    defer { Task { try? await owner.terminate() } }
    return try await owner.document(path).getDocument(source: .server).data()
  }

  @Test("one instance: a signed-out user's and another user's queued writes wait for their user, offline and online")
  func switchingWithinOneInstance() async throws {
    let server = try MockFirestoreServer.start()
    defer { _ = server.stop() }
    let project = "demo-users-\(UInt32.random(in: 0...UInt32.max))"
    let provider = SwitchingTokenProvider { Self.token($0) }
    provider.signIn("alice")
    let db = Self.client(server, project: project, provider: provider)
    let notes = db.collection("notes")

    // Offline: Alice writes, signs out, a signed-out write follows, then Bob signs in.
    try await db.disableNetwork()
    Self.queue(notes.document("alice1"), by: "alice")
    provider.signIn(nil)
    Self.queue(notes.document("nobody1"), by: "nobody")
    provider.signIn("bob")
    Self.queue(notes.document("bob1"), by: "bob")
    let shownToBob = try await notes.getDocuments(source: .cache)
    #expect(shownToBob.documents.map(\.documentID) == ["bob1"], "only the signed-in user's pending writes show")

    try await db.enableNetwork()
    try await db.waitForPendingWrites()
    #expect(Self.commits(server, project: project) == [Self.token("bob")], "only Bob's write went, with Bob's token")
    #expect(try await Self.serverFields(server, project: project, "notes/alice1") == nil)

    // Online: Alice signs back in; her write from before goes with her token.
    provider.signIn("alice")
    Self.queue(notes.document("alice2"), by: "alice")
    try await db.waitForPendingWrites()
    let afterAlice = Self.commits(server, project: project)
    #expect(afterAlice.first == Self.token("bob") && afterAlice.dropFirst().allSatisfy { $0 == Self.token("alice") })
    #expect(afterAlice.count >= 2)
    #expect(try await Self.serverFields(server, project: project, "notes/alice1")?["by"] as? String == "alice")
    #expect(try await Self.serverFields(server, project: project, "notes/alice2")?["by"] as? String == "alice")
    #expect(try await Self.serverFields(server, project: project, "notes/nobody1") == nil)

    // Signing out sends the signed-out write, with no token.
    provider.signIn(nil)
    Self.queue(notes.document("nobody2"), by: "nobody")
    try await db.waitForPendingWrites()
    #expect(Self.commits(server, project: project).suffix(from: afterAlice.count).allSatisfy { $0 == "" })
    #expect(try await Self.serverFields(server, project: project, "notes/nobody1")?["by"] as? String == "nobody")
    #expect(try await Self.serverFields(server, project: project, "notes/bob1")?["by"] as? String == "bob")
    try await db.terminate()
  }

  @Test("a cache read and a new listener follow the signed-in user with no write after the change")
  func readsFollowTheUser() async throws {
    let (server, provider, db) = try Self.aliceOnMock(announces: false)
    defer { _ = server.stop() }
    let notes = db.collection("notes")
    try await db.disableNetwork()
    Self.queue(notes.document("alice1"), by: "alice")
    #expect(try await notes.getDocuments(source: .cache).documents.map(\.documentID) == ["alice1"])
    provider.signIn("bob")
    #expect(try await notes.getDocuments(source: .cache).isEmpty, "Alice's pending write shows to Bob")
    await #expect(throws: FirestoreError.self) { try await notes.document("alice1").getDocument(source: .cache) }
    let listener = SequenceCollector(notes.snapshots(includeMetadataChanges: false))
    #expect(try await listener.next().isEmpty)
    provider.signIn("alice")
    #expect(try await notes.document("alice1").getDocument(source: .cache).get("by") as? String == "alice")
    #expect(try await listener.next().documents.map(\.documentID) == ["alice1"], "the open listener follows the read's switch")
    listener.cancel()
    try await db.terminate()
  }

  @Test("a sign-in the provider announces reaches an open listener at once, and its listen reopens")
  func announcedUserReachesListeners() async throws {
    let (server, provider, db) = try Self.aliceOnMock(announces: true)
    defer { _ = server.stop() }
    let notes = db.collection("notes")
    let listener = SequenceCollector(notes.snapshots(includeMetadataChanges: true))
    _ = try await listener.next { !$0.metadata.isFromCache }
    #expect(await db.listenManager.handshakeCount == 1)
    provider.signIn("bob")
    // Its token goes in the handshake's body; the rules test on the emulator sees it used.
    try await eventually("the listen reopens") { await db.listenManager.handshakeCount == 2 }

    // Offline, Alice's queued write leaves the listener when Bob signs in, with no call made.
    provider.signIn("alice")
    try await db.disableNetwork()
    Self.queue(notes.document("alice1"), by: "alice")
    _ = try await listener.next { $0.documents.map(\.documentID) == ["alice1"] }
    provider.signIn("bob")
    _ = try await listener.next { $0.isEmpty }
    listener.cancel()
    try await db.terminate()
  }

  @Test("an announcement read after a later change does not switch back to the user it named")
  func lateAnnouncement() async throws {
    let (server, provider, db) = try Self.aliceOnMock(announces: true)
    defer { _ = server.stop() }
    let notes = db.collection("notes")
    try await db.disableNetwork()
    let listener = SequenceCollector(notes.snapshots(options: SnapshotListenOptions().withSource(.cache)))
    #expect(try await listener.next().isEmpty)
    Self.queue(notes.document("alice1"), by: "alice")
    #expect(try await listener.next().documents.map(\.documentID) == ["alice1"])
    provider.signIn("bob")
    #expect(try await listener.next().isEmpty)
    Self.queue(notes.document("bob1"), by: "bob")
    #expect(try await listener.next().documents.map(\.documentID) == ["bob1"])
    // Alice's sign-in announced late, then Carol's: the listener goes from Bob's write
    // straight to Carol's nothing, never back to Alice's write.
    provider.announceLate("alice")
    provider.signIn("carol")
    #expect(try await listener.next().isEmpty)
    listener.cancel()
    try await db.terminate()
  }

  @Test("waitForPendingWrites() fails with cancelled when the user changes while it waits, as in the Apple SDK")
  func waitEndsOnUserChange() async throws {
    let (server, provider, db) = try Self.aliceOnMock(announces: false)
    defer { _ = server.stop() }
    try await db.disableNetwork()
    Self.queue(db.document("notes/alice1"), by: "alice")
    let wait = Task { try await db.waitForPendingWrites() }
    // Once the pipeline holds the wait, Bob's write switches users.
    try await eventually("the wait is registered") { db.writePipeline.pendingWaiterCount == 1 }
    provider.signIn("bob")
    Self.queue(db.document("notes/bob1"), by: "bob")
    let error = await #expect(throws: FirestoreError.self) { try await wait.value }
    #expect(error?.code == .cancelled, "\(String(describing: error))")
    try await db.terminate()
  }

  @Test("a cache file's queued writes are sent only by an instance of the user who made them")
  func sharedCacheFile() async throws {
    let server = try MockFirestoreServer.start()
    defer { _ = server.stop() }
    let project = "demo-users-\(UInt32.random(in: 0...UInt32.max))"
    let directory = try makeTemporaryDirectory("firestore-users")
    defer { try? FileManager.default.removeItem(at: directory) }
    let cache = LocalCacheSettings.persistent(directory: directory)

    let alice = Self.client(server, project: project, provider: StaticTokenProvider(Self.token("alice")), cache: cache)
    try await alice.disableNetwork()
    Self.queue(alice.document("notes/alice1"), by: "alice")
    try await alice.terminate()

    // Bob's provider does not say who he is until it gives a token: the store learns it
    // from the first token, and holds Alice's batch back meanwhile.
    let bobToken = Self.token("bob")
    let bob = Self.client(server, project: project, provider: ClosureTokenProvider { _ in bobToken }, cache: cache)
    try await bob.document("notes/bob1").setData(["by": "bob"])
    try await bob.waitForPendingWrites()
    #expect(Self.commits(server, project: project) == [bobToken])
    #expect(try await Self.serverFields(server, project: project, "notes/alice1") == nil)
    try await bob.terminate()

    let aliceAgain = Self.client(server, project: project, provider: StaticTokenProvider(Self.token("alice")), cache: cache)
    try await aliceAgain.waitForPendingWrites()
    #expect(Self.commits(server, project: project) == [bobToken, Self.token("alice")])
    #expect(try await Self.serverFields(server, project: project, "notes/alice1")?["by"] as? String == "alice")
    try await aliceAgain.terminate()
  }
}
