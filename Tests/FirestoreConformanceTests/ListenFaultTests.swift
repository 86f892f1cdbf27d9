import FirestoreMock
import FirestoreTestSupport
import Foundation
import Testing

@testable import FirestoreClient

/// Listeners under a back channel that keeps breaking: the mock cuts it at random points
/// while documents are added, changed and deleted, and every listener must still see a
/// consistent story that ends in the server's state.
@Suite("Listen under injected faults", .requires(.mock))
struct ListenFaultTests {
  @Test("random back-channel drops over 120 writes: no duplicate, unknown or lost change; the end state matches")
  func dropsDuringWrites() async throws {
    let server = try MockFirestoreServer.start()
    defer { server.stop() }
    let settings = FirestoreSettings.emulator(host: server.hostAndPort)
    settings.retryPolicy.sleep = { _ in }
    let db = Firestore(projectID: "listen-faults", settings: settings)
    let items = db.collection("items")
    // Two listeners on one session: all items, and a filtered view that documents enter and leave.
    let all = SequenceCollector(items.snapshots)
    let even = SequenceCollector(items.whereField("even", isEqualTo: true).snapshots)
    var allReplica = ListenReplica(field: "v")
    var evenReplica = ListenReplica(field: "v")
    allReplica.apply(try await all.next())
    evenReplica.apply(try await even.next())

    var generator = SystemRandomNumberGenerator()
    let backChannel = "GET /google.firestore.v1.Firestore/Listen/channel"
    let getsBefore = server.requestLog.count(matching: "/Listen/channel", method: "GET")
    var cuts = 0
    var cutsSeen = 0
    for _ in 0..<120 {
      // At random points: cut the open back channel, or make the next one break after a
      // few frames, or end the whole session.
      switch Int.random(in: 0..<12, using: &generator) {
      case 0:
        server.cutListenBackChannels()
        cuts += 1
      case 1:
        server.faults.add(FaultRule(route: backChannel, fault: .dropAfterFrames(Int.random(in: 0...2, using: &generator)), remaining: 1))
        server.cutListenBackChannels()
        cuts += 1
      case 2:
        server.faults.add(FaultRule(route: backChannel, fault: .closeSessionAfterFrames(1), remaining: 1))
        server.cutListenBackChannels()
        cuts += 1
      default:
        break
      }
      if cuts > cutsSeen {
        // Wait for the client to reopen the back channel, so that the next cut cuts a
        // channel that is open (a cut with none open changes nothing).
        cutsSeen = cuts
        try await eventually("the client to reopen the back channel", interval: .milliseconds(1)) {
          server.requestLog.count(matching: "/Listen/channel", method: "GET") - getsBefore >= cuts
        }
      }
      let id = "d\(Int.random(in: 0..<15, using: &generator))"
      let value = Int.random(in: 0..<1000, using: &generator)
      if Int.random(in: 0..<4, using: &generator) == 0 {
        try await items.document(id).delete()
      } else {
        try await items.document(id).setData(["v": value, "even": value % 2 == 0])
      }
    }
    server.faults.removeAll()

    let final = try await items.getDocuments()
    let expected = Dictionary(uniqueKeysWithValues: final.documents.map { ($0.documentID, $0.get("v") as? Int ?? -1) })
    let expectedEven = expected.filter { $0.value % 2 == 0 }
    // Drain snapshots until each listener has caught up with the server (or time runs out).
    while allReplica.documents != expected { allReplica.apply(try await all.next()) }
    while evenReplica.documents != expectedEven { evenReplica.apply(try await even.next()) }
    #expect(allReplica.violations.isEmpty, "\(allReplica.violations)")
    #expect(evenReplica.violations.isEmpty, "\(evenReplica.violations)")
    // One session left: one the client gave up on (a handshake answered late under a slow
    // run) is terminated in the background.
    try await eventually("one listen session on the server") { server.listenSessionCount <= 1 }
    // The cuts really happened: every one made the client open another back channel.
    #expect(cuts >= 10)
    #expect(server.requestLog.count(matching: "/Listen/channel", method: "GET") - getsBefore >= cuts)
  }

  @Test("the back channel is renewed when the server ends it, and the listen goes on in the same session")
  func backChannelRenewal() async throws {
    // The emulator ends a back channel after about 45 s; this mock at its first flush, so
    // that every change the listener gets comes on a back channel of its own.
    let server = try MockFirestoreServer.start(backChannelWait: .zero)
    defer { server.stop() }
    let db = Firestore(projectID: "renewal", settings: .emulator(host: server.hostAndPort))
    let ref = db.document("c/doc")
    let collector = SequenceCollector(ref.snapshots)
    _ = try await collector.next()
    for v in 1...3 {
      try await ref.setData(["v": v])
      _ = try await collector.next { $0.get("v") as? Int == v }
    }
    // A write's snapshot may be the local write's, before the server's change reaches a
    // back channel: the renewals are waited for where they happen, on the server.
    try await eventually("a back channel for the first snapshot and one for each change") {
      server.requestLog.count(matching: "/Listen/channel", method: "GET") >= 4
    }
    #expect(await db.listenManager.handshakeCount == 1)
  }

  /// A gateway in front of the server answers 502 when it hands a request a connection the
  /// server is closing; the handshake is sent again at once, and the listener's first
  /// snapshot is the server's, not an empty one from the cache.
  @Test("a handshake a gateway answers with 502 is sent again, and the listener never sees the cache")
  func handshakeAfterGatewayFailure() async throws {
    let server = try MockFirestoreServer.start()
    defer { server.stop() }
    let db = Firestore(projectID: "gateway", settings: .emulator(host: server.hostAndPort))
    // Written by another instance, so that this one's cache has nothing to show.
    try await Firestore(projectID: "gateway", settings: .emulator(host: server.hostAndPort)).document("c/doc").setData(["v": 1])
    server.faults.add(
      FaultRule(
        route: "POST /google.firestore.v1.Firestore/Listen/channel?CVER=",
        fault: .error(status: 502, grpcStatus: "UNAVAILABLE", message: "bad gateway"), remaining: 1))
    let collector = SequenceCollector(db.collection("c").snapshots(includeMetadataChanges: true))
    let first = try await collector.next()
    #expect(first.documents.map(\.documentID) == ["doc"])
    #expect(!first.metadata.isFromCache)
    #expect(server.faults.rules.isEmpty, "the handshake did not meet the fault")
    let handshakes = server.requestLog.entries.filter {
      $0.method == "POST" && $0.path.hasSuffix("/Listen/channel") && !$0.query.contains("SID=")
    }
    #expect(handshakes.count == 2)
    #expect(await db.listenManager.handshakeCount == 1)
    collector.cancel()
  }

  /// A refused handshake fails the stream, not the listener: as in the official SDKs the
  /// stream is opened again after a backoff, the listener sees the cache meanwhile, and the
  /// failure is readable until the server answers.
  @Test("a handshake refused with 403 is retried; the listener sees the cache meanwhile and the failure is readable")
  func refusedHandshakeIsRetried() async throws {
    let server = try MockFirestoreServer.start()
    defer { server.stop() }
    let backoff = ManualTimer()
    let settings = FirestoreSettings.emulator(host: server.hostAndPort)
    settings.retryPolicy.sleep = { try await backoff.wait($0) }
    let db = Firestore(projectID: "refused", settings: settings)
    try await Firestore(projectID: "refused", settings: .emulator(host: server.hostAndPort)).document("c/doc").setData(["v": 1])
    #expect(await db.listenStreamError == nil)
    server.faults.add(
      FaultRule(
        route: "POST /google.firestore.v1.Firestore/Listen/channel?CVER=",
        fault: .error(status: 403, grpcStatus: "PERMISSION_DENIED", message: "the caller may not read this project"), remaining: 1))
    let collector = SequenceCollector(db.collection("c").snapshots(includeMetadataChanges: true))
    let first = try await collector.next()
    #expect(first.metadata.isFromCache && first.documents.isEmpty)
    try await eventually("the backoff after the refused handshake") { backoff.pending.count == 1 }
    let failure = await db.listenStreamError
    #expect(failure?.code == .permissionDenied && failure?.httpStatus == 403, "\(String(describing: failure))")
    #expect(failure?.message.contains("the caller may not read this project") == true, "\(String(describing: failure))")
    backoff.expireAll()
    let fromServer = try await collector.nextFromServer()
    #expect(fromServer.documents.map(\.documentID) == ["doc"])
    #expect(await db.listenManager.handshakeCount == 2)
    // The server answered: the stream is no longer down.
    #expect(await db.listenStreamError == nil)
    collector.cancel()
  }

  /// As the Apple SDK's online state returns to unknown when its last listen goes or the
  /// network is enabled, a listener started then waits for the server instead of getting
  /// an empty first snapshot from the cache, as it would while the stream is down.
  @Test("after the offline listener goes, or the network is enabled, a new listener waits for the server")
  func offlineVerdictEndsWithItsListeners() async throws {
    let server = try MockFirestoreServer.start()
    defer { server.stop() }
    let backoff = ManualTimer()
    let settings = FirestoreSettings.emulator(host: server.hostAndPort)
    settings.retryPolicy.sleep = { try await backoff.wait($0) }
    let db = Firestore(projectID: "verdict", settings: settings)
    // A handshake slower than its timeout on a busy machine would take a listen offline
    // again: the deadline is the test's, and never passes.
    let deadline = ManualTimer()
    await db.listenManager.setRequestTimer { try await deadline.wait($0) }
    server.faults.add(
      FaultRule(
        route: "POST /google.firestore.v1.Firestore/Listen/channel?CVER=",
        fault: .error(status: 403, grpcStatus: "PERMISSION_DENIED", message: "refused"), remaining: 1))
    let offline = SequenceCollector(db.collection("a").snapshots(includeMetadataChanges: true))
    #expect(try await offline.next().metadata.isFromCache)
    try await eventually("the backoff after the refused handshake") { backoff.pending.count == 1 }
    offline.cancel()
    try await eventually("the listen to end") { await db.listenManager.listenerCount == 0 }
    let later = SequenceCollector(db.collection("b").snapshots(includeMetadataChanges: true))
    // The stream opens again once its backoff ends, as the SDKs' streams wait theirs.
    backoff.expireAll()
    #expect(try await later.next().metadata.isFromCache == false)
    later.cancel()

    try await db.disableNetwork()
    try await db.enableNetwork()
    let afterEnable = SequenceCollector(db.collection("c").snapshots(includeMetadataChanges: true))
    #expect(try await afterEnable.next().metadata.isFromCache == false)
    afterEnable.cancel()
  }
}
