import FirestorePlatform
import FirestoreTestSupport
import FirestoreWire
import Foundation
import Testing

@testable import FirestoreClient

private let docName = "projects/p/databases/(default)/documents/rooms/r1"

private func add(_ id: Int) -> String { #"{"targetChange":{"targetChangeType":"ADD","targetIds":[\#(id)]}}"# }
private func current(_ id: Int, token: String = "dG9rMQ==") -> String {
  #"{"targetChange":{"targetChangeType":"CURRENT","targetIds":[\#(id)],"resumeToken":"\#(token)","readTime":"2026-01-01T00:00:01Z"}}"#
}
private func global(_ second: Int) -> String {
  #"{"targetChange":{"resumeToken":"Z2xvYmFs","readTime":"2026-01-01T00:00:\#(second < 10 ? "0" : "")\#(second)Z"}}"#
}
private func change(_ id: Int, value: Int, second: Int) -> String {
  let time = "2026-01-01T00:00:\(second < 10 ? "0" : "")\(second)Z"
  return #"{"documentChange":{"document":{"name":"\#(docName)","fields":{"v":{"integerValue":"\#(value)"}},"#
    + #""createTime":"2026-01-01T00:00:00Z","updateTime":"\#(time)"},"targetIds":[\#(id)]}}"#
}
private func delete(_ id: Int, doc: String = docName) -> String {
  #"{"documentDelete":{"document":"\#(doc)","removedTargetIds":[\#(id)],"readTime":"2026-01-01T00:00:01Z"}}"#
}

/// Pushes a change of rooms/r1 to value 2 as arrays `firstArray` and `firstArray + 1` of the
/// newest back channel, and waits for the snapshot it makes, the listener's `count + 1`th.
/// Snapshots reach a listener in order, so a snapshot that anything pushed before would
/// have made (one the test says must not come) would be there first: the last snapshot
/// must be the sentinel's, right after the `count` there were.
private func expectOnlySentinelAfter(
  _ count: Int, _ received: Received, _ transport: FakeWebChannelTransport, firstArray: Int,
  sourceLocation: SourceLocation = #_sourceLocation
) async throws {
  transport.push([(firstArray, change(2, value: 2, second: 30)), (firstArray + 1, global(30))])
  try await eventually("the sentinel's snapshot", sourceLocation: sourceLocation) { received.snapshots.count > count }
  let snapshots = received.snapshots
  #expect(snapshots.count == count + 1, "a snapshot came before the sentinel's", sourceLocation: sourceLocation)
  #expect(snapshots.last?.get("v") as? Int == 2, sourceLocation: sourceLocation)
}

/// Collects snapshots from a callback listener.
private final class Received: Sendable {
  private let items = Locked<[DocumentSnapshot]>([])
  private let errors = Locked<[any Error]>([])
  func record(_ snapshot: DocumentSnapshot?, _ error: (any Error)?) {
    if let snapshot { items.withLock { $0.append(snapshot) } }
    if let error { errors.withLock { $0.append(error) } }
  }
  var snapshots: [DocumentSnapshot] { items.withLock { $0 } }
  var failures: [any Error] { errors.withLock { $0 } }
}

/// A token provider whose token the test changes, recording every `forceRefresh` asked for.
private final class Tokens: Sendable {
  private let state = Locked((token: "alice", calls: [Bool]()))
  var current: String {
    get { state.withLock { $0.token } }
    set { state.withLock { $0.token = newValue } }
  }
  var calls: [Bool] { state.withLock { $0.calls } }
  var provider: ClosureTokenProvider {
    ClosureTokenProvider { forceRefresh in
      self.state.withLock { state in
        state.calls.append(forceRefresh)
        if forceRefresh { state.token += "+" }  // a refresh yields a new token
        return state.token
      }
    }
  }
}

/// The `Authorization` header a handshake body carries.
private func authorization(_ request: HTTPRequest) throws -> String? {
  let body = String(decoding: request.body ?? Data(), as: UTF8.self)
  return try WebChannelForwardBody.headers(in: body).first { $0.name == "Authorization" }?.value
}

/// The targets a handshake (or forward POST) adds.
private func addedTargets(_ request: HTTPRequest) throws -> [Target] {
  let body = String(decoding: request.body ?? Data(), as: UTF8.self)
  return try WebChannelForwardBody.decode(body).messages.map(ListenRequest.init(json:)).compactMap {
    if case .addTarget(let target) = $0.change { return target }
    return nil
  }
}

private final class SleepCounter: Sendable {
  private let count = Locked(0)
  func increment() { count.withLock { $0 += 1 } }
  var value: Int { count.withLock { $0 } }
}

@Suite("Listen channel over a fake WebChannel server")
struct WebChannelListenClientTests {
  private func listen(_ transport: FakeWebChannelTransport) -> (Firestore, Received, ListenerRegistration) {
    let db = Offline.firestore(transport)
    let received = Received()
    let registration = db.document("rooms/r1").addSnapshotListener { received.record($0, $1) }
    return (db, received, registration)
  }

  @Test("the handshake carries auth, the headers REST calls send, and the first addTarget; a missing document gives exists == false")
  func handshake() async throws {
    let transport = FakeWebChannelTransport()
    let (db, received, registration) = listen(transport)
    try await eventually("the back channel") { transport.backChannelCount == 1 }
    let handshake = transport.requests[0]
    #expect(handshake.method == "POST")
    #expect(handshake.url.path == "/google.firestore.v1.Firestore/Listen/channel")
    let params = FakeWebChannelTransport.params(handshake)
    #expect(params["database"] == "projects/p/databases/(default)")
    #expect(params["VER"] == "8")
    let body = String(decoding: handshake.body ?? Data(), as: UTF8.self)
    let headers = try WebChannelForwardBody.headers(in: body)
    #expect(headers.contains { $0.name == "Authorization" && $0.value == "Bearer owner" })
    // The headers every REST call sends: the client's name and the database for routing.
    let routing = RequestCredentials(database: "projects/p/databases/(default)", tokenProvider: nil).headers
    #expect(routing["google-cloud-resource-prefix"] == "projects/p/databases/(default)")
    #expect(routing["x-goog-request-params"] == "project_id=p&database_id=(default)")
    for (name, value) in routing { #expect(headers.contains { $0.name == name && $0.value == value }, "\(name)") }
    let decoded = try WebChannelForwardBody.decode(body)
    #expect(decoded.offset == 0)
    #expect(
      try decoded.messages.map(ListenRequest.init(json:)).map(\.change) == [.addTarget(Target(targetID: 2, kind: .documents([docName])))])
    let back = FakeWebChannelTransport.params(transport.backChannelRequests[0])
    #expect(back["SID"] == "SID1" && back["AID"] == "0" && back["RID"] == "rpc" && back["CI"] == "0")

    transport.push([(1, add(2)), (2, delete(2)), (3, current(2)), (4, global(1))])
    try await eventually("the first snapshot") { received.snapshots.count == 1 }
    #expect(received.snapshots[0].exists == false)
    registration.remove()
    try await eventually("the terminate") {
      transport.requests.contains { FakeWebChannelTransport.params($0)["TYPE"] == "terminate" }
    }
    #expect(await db.listenManager.currentChannel == nil)
  }

  @Test("a listen of documents an ended listen held resumes from its token, starting from what the cache holds")
  func relistenResumes() async throws {
    let transport = FakeWebChannelTransport()
    let (db, received, registration) = listen(transport)
    try await eventually("the back channel") { transport.backChannelCount == 1 }
    transport.push([(1, add(2)), (2, change(2, value: 1, second: 1)), (3, current(2, token: "dG9rMQ==")), (4, global(1))])
    try await eventually("the first snapshot") { received.snapshots.count == 1 }
    registration.remove()
    try await eventually("the terminate") { await db.listenManager.currentChannel == nil }

    let again = Received()
    let second = db.document("rooms/r1").addSnapshotListener(includeMetadataChanges: true) { again.record($0, $1) }
    try await eventually("the second session's back channel") { transport.backChannelCount == 2 }
    let handshake = try #require(transport.handshakeRequests.last)
    let targets = try addedTargets(handshake)
    // The token of the last consistent point: the global one that followed CURRENT.
    #expect(targets.map(\.resumeToken) == [Data(base64Encoded: "Z2xvYmFs")])
    #expect(await db.listenManager.resumedListens == 1)
    // The server sends only what changed since the token: here nothing.
    transport.push([(1, add(4)), (2, current(4, token: "dG9rMg==")), (3, global(2))])
    try await eventually("a snapshot from the server") { again.snapshots.contains { !$0.metadata.isFromCache } }
    #expect(again.snapshots.last?.get("v") as? Int == 1)
    second.remove()

    // A listen of other documents starts from scratch.
    let other = db.document("rooms/r2").addSnapshotListener { _, _ in }
    try await eventually("the third session's back channel") { transport.backChannelCount == 3 }
    #expect(try addedTargets(try #require(transport.handshakeRequests.last)).map(\.resumeToken) == [nil])
    other.remove()
    try await eventually("the third session's end") { await db.listenManager.currentChannel == nil }

    // A projection's partial documents are not cached, so it never resumes: the cache's
    // older whole version would pass for what the server has no reason to send again.
    let projected = db.collection("rooms").select(["v"])
    for session in [4, 5] {
      let synced = Locked(false)
      let registration = projected.addSnapshotListener(includeMetadataChanges: true) { snapshot, _ in
        if snapshot?.metadata.isFromCache == false { synced.withLock { $0 = true } }
      }
      try await eventually("session \(session)'s back channel") { transport.backChannelCount == session }
      #expect(try addedTargets(try #require(transport.handshakeRequests.last)).map(\.resumeToken) == [nil])
      let target = session == 4 ? 8 : 10
      transport.push([(1, add(target)), (2, change(target, value: 5, second: 5)), (3, current(target)), (4, global(5))])
      try await eventually("session \(session)'s server snapshot") { synced.withLock { $0 } }
      registration.remove()
      try await eventually("session \(session)'s end") { await db.listenManager.currentChannel == nil }
    }
    #expect(await db.listenManager.resumedListens == 1)
  }

  @Test("a count that does not match marks the listener out of sync until the target runs again")
  func existenceFilterMismatchIsOutOfSync() async throws {
    let transport = FakeWebChannelTransport()
    let db = Offline.firestore(transport)
    let received = Received()
    let registration = db.document("rooms/r1").addSnapshotListener(includeMetadataChanges: true) { received.record($0, $1) }
    try await eventually("the back channel") { transport.backChannelCount == 1 }
    transport.push([(1, add(2)), (2, change(2, value: 1, second: 1)), (3, current(2)), (4, global(1))])
    try await eventually("the server's snapshot") { received.snapshots.contains { !$0.metadata.isFromCache } }
    let count = received.snapshots.count
    transport.push([(5, #"{"filter":{"targetId":2,"count":2}}"#)])
    try await eventually("the out-of-sync snapshot") { received.snapshots.count == count + 1 }
    #expect(received.snapshots.last?.metadata.isFromCache == true)
    #expect(received.snapshots.last?.get("v") as? Int == 1)
    try await eventually("the target sent again") { transport.forwardRequests.count == 1 }
    transport.push([
      (6, #"{"targetChange":{"targetChangeType":"REMOVE","targetIds":[2]}}"#), (7, add(2)), (8, change(2, value: 1, second: 1)),
      (9, current(2)), (10, global(2)),
    ])
    try await eventually("back in sync") { received.snapshots.last?.metadata.isFromCache == false }
    registration.remove()
  }

  @Test("an ended back channel is reopened with the last array id, and re-sent arrays are ignored")
  func renewalAndDeduplication() async throws {
    let transport = FakeWebChannelTransport()
    let (db, received, registration) = listen(transport)
    defer { registration.remove() }
    try await eventually("the back channel") { transport.backChannelCount == 1 }
    transport.push([(1, add(2)), (2, change(2, value: 1, second: 1)), (3, current(2)), (4, global(1))])
    try await eventually("the first snapshot") { received.snapshots.count == 1 }
    transport.endBackChannel()
    try await eventually("a second back channel") { transport.backChannelCount == 2 }
    #expect(FakeWebChannelTransport.params(transport.backChannelRequests[1])["AID"] == "4")
    // Array 4 again (as a delete, to make a re-application visible), then new data.
    transport.push([(4, delete(2)), (5, change(2, value: 2, second: 5)), (6, global(6))])
    try await eventually("the second snapshot") { received.snapshots.count == 2 }
    #expect(received.snapshots[1].exists)
    #expect(received.snapshots[1].get("v") as? Int == 2)
    #expect(await db.listenManager.handshakeCount == 1)
  }

  @Test("a dropped session backs off through the retry policy and re-adds targets with resume tokens")
  func reconnect() async throws {
    let transport = FakeWebChannelTransport()
    let sleeps = SleepCounter()
    let settings = FirestoreSettings.emulator(host: "127.0.0.1:1")
    settings.transport = transport
    settings.retryPolicy.sleep = { _ in sleeps.increment() }
    let db = Firestore(projectID: "p", settings: settings)
    let received = Received()
    let registration = db.document("rooms/r1").addSnapshotListener { received.record($0, $1) }
    defer { registration.remove() }
    try await eventually("the back channel") { transport.backChannelCount == 1 }
    transport.push([(1, add(2)), (2, change(2, value: 1, second: 1)), (3, current(2, token: "cmVzdW1lKy8=")), (4, global(1))])
    try await eventually("the first snapshot") { received.snapshots.count == 1 }

    transport.rejectNextBackChannel()
    transport.endBackChannel()
    try await eventually("a new session") { transport.sessionCount == 2 }
    #expect(sleeps.value == 1)
    let handshakes = transport.requests.filter { $0.method == "POST" && FakeWebChannelTransport.params($0)["SID"] == nil }
    let body = String(decoding: handshakes[1].body ?? Data(), as: UTF8.self)
    let messages = try WebChannelForwardBody.decode(body).messages.map(ListenRequest.init(json:))
    guard case .addTarget(let target) = messages.first?.change else {
      Issue.record("no addTarget in the new handshake")
      return
    }
    #expect(target.targetID == 2)
    #expect(target.resumeToken == Data(base64Encoded: "Z2xvYmFs"))
    #expect(body.contains("%2B") || !body.contains("+"))
    // The old session was terminated; the listener goes on without a spurious snapshot.
    #expect(transport.requests.contains { FakeWebChannelTransport.params($0)["TYPE"] == "terminate" })
    try await eventually("the new back channel") { transport.backChannelCount == 2 }
    transport.push([(1, add(2)), (2, #"{"targetChange":{"targetChangeType":"RESET","targetIds":[2]}}"#)])
    transport.push([(3, change(2, value: 1, second: 1)), (4, current(2)), (5, global(9))])
    try await expectOnlySentinelAfter(1, received, transport, firstArray: 6)
    #expect(received.failures.isEmpty)
    #expect(await db.listenManager.handshakeCount == 2)
  }

  @Test("a second listener is added by a forward POST on the same session; a target error fails only it")
  func forwardAndTargetError() async throws {
    let transport = FakeWebChannelTransport()
    let (db, received, registration) = listen(transport)
    defer { registration.remove() }
    try await eventually("the back channel") { transport.backChannelCount == 1 }
    let other = Received()
    let second = db.document("rooms/r2").addSnapshotListener { other.record($0, $1) }
    defer { second.remove() }
    try await eventually("the forward POST") {
      transport.requests.contains { $0.method == "POST" && FakeWebChannelTransport.params($0)["SID"] != nil }
    }
    let forward = try #require(transport.requests.first { $0.method == "POST" && FakeWebChannelTransport.params($0)["SID"] != nil })
    let handshakeRID = Int(FakeWebChannelTransport.params(transport.requests[0])["RID"] ?? "") ?? -1
    #expect(FakeWebChannelTransport.params(forward)["RID"] == String(handshakeRID + 1))
    let decoded = try WebChannelForwardBody.decode(String(decoding: forward.body ?? Data(), as: UTF8.self))
    #expect(decoded.offset == 1)
    transport.push([
      (1, add(4)), (2, #"{"targetChange":{"targetChangeType":"REMOVE","targetIds":[4],"cause":{"code":7,"message":"denied"}}}"#),
    ])
    try await eventually("the error") { other.failures.count == 1 }
    #expect((other.failures[0] as? FirestoreError)?.code == .permissionDenied)
    #expect(received.failures.isEmpty)
    #expect(await db.listenManager.listenerCount == 1)
    #expect(await db.listenManager.handshakeCount == 1)
  }
}

@Suite("Listen channel: token changes and wedged forward POSTs")
struct WebChannelListenClientAuthTests {
  private let second = "projects/p/databases/(default)/documents/rooms/r2"

  private func firestore(
    _ transport: FakeWebChannelTransport, tokens: Tokens? = nil, sleeps: SleepCounter? = nil
  ) -> Firestore {
    let settings = FirestoreSettings.emulator(host: "127.0.0.1:1")
    settings.transport = transport
    if let tokens { settings.tokenProvider = tokens.provider }
    settings.retryPolicy.sleep = { _ in sleeps?.increment() }
    return Firestore(projectID: "p", settings: settings)
  }

  /// Opens a listener on rooms/r1 and waits for its first snapshot (value 1).
  private func firstListener(_ db: Firestore, _ transport: FakeWebChannelTransport) async throws -> (Received, ListenerRegistration) {
    let received = Received()
    let registration = db.document("rooms/r1").addSnapshotListener { received.record($0, $1) }
    try await eventually("the back channel") { transport.backChannelCount == 1 }
    transport.push([(1, add(2)), (2, change(2, value: 1, second: 1)), (3, current(2)), (4, global(1))])
    try await eventually("the first snapshot") { received.snapshots.count == 1 }
    return (received, registration)
  }

  /// A fake transport and a client on it whose token provider and backoff sleeps the test
  /// watches.
  private func watchedClient() -> (FakeWebChannelTransport, Tokens, SleepCounter, Firestore) {
    let transport = FakeWebChannelTransport()
    let tokens = Tokens()
    let sleeps = SleepCounter()
    return (transport, tokens, sleeps, firestore(transport, tokens: tokens, sleeps: sleeps))
  }

  /// Opens a second listener, on rooms/r2 (target 4).
  private func secondListener(_ db: Firestore) -> (Received, ListenerRegistration) {
    let other = Received()
    return (other, db.document("rooms/r2").addSnapshotListener { other.record($0, $1) })
  }

  /// Checks that the first session (SID1) was terminated and that the second one's handshake
  /// re-adds both targets, rooms/r1's with the resume token it had reached.
  private func expectReplacedWithBothTargets(_ transport: FakeWebChannelTransport) throws {
    #expect(
      transport.requests.contains {
        FakeWebChannelTransport.params($0)["TYPE"] == "terminate" && FakeWebChannelTransport.params($0)["SID"] == "SID1"
      })
    let targets = try addedTargets(transport.handshakeRequests[1])
    #expect(targets.map(\.targetID) == [2, 4])
    #expect(targets.first?.resumeToken == Data(base64Encoded: "Z2xvYmFs"))
  }

  /// Answers the second session's back channel for both targets (rooms/r1 unchanged, rooms/r2
  /// missing) and waits for the second listener's snapshot.
  private func answerBothTargets(_ transport: FakeWebChannelTransport, _ other: Received) async throws {
    try await eventually("the new back channel") { transport.backChannelCount == 2 }
    transport.push([
      (1, add(2)), (2, add(4)), (3, change(2, value: 1, second: 1)), (4, delete(4, doc: second)), (5, current(2)),
      (6, current(4)), (7, global(9)),
    ])
    try await eventually("the second listener's snapshot") { other.snapshots.count == 1 }
  }

  @Test("a token change before a forward POST opens a new session carrying the new token and every target")
  func tokenChangeBeforeForwardPOST() async throws {
    let (transport, tokens, sleeps, db) = watchedClient()
    let (received, registration) = try await firstListener(db, transport)
    defer { registration.remove() }

    tokens.current = "bob"
    let (other, otherRegistration) = secondListener(db)
    defer { otherRegistration.remove() }
    try await eventually("a new session") { transport.sessionCount == 2 }
    let handshakes = transport.handshakeRequests
    #expect(try authorization(handshakes[0]) == "Bearer alice")
    #expect(try authorization(handshakes[1]) == "Bearer bob")
    // The addTarget never went out on the old session, which was terminated; no backoff.
    try expectReplacedWithBothTargets(transport)
    #expect(transport.forwardRequests.isEmpty)
    #expect(sleeps.value == 0)
    #expect(!tokens.calls.contains(true))

    try await answerBothTargets(transport, other)
    #expect(other.snapshots[0].exists == false)
    try await expectOnlySentinelAfter(1, received, transport, firstArray: 8)  // the re-sent document is no change
    #expect(received.failures.isEmpty && other.failures.isEmpty)
    #expect(await db.listenManager.handshakeCount == 2)
  }

  @Test("a token change noticed when the back channel is renewed opens a new session")
  func tokenChangeOnRenewal() async throws {
    let (transport, tokens, sleeps, db) = watchedClient()
    let (received, registration) = try await firstListener(db, transport)
    defer { registration.remove() }

    tokens.current = "bob"
    transport.endBackChannel()
    try await eventually("a new session") { transport.sessionCount == 2 }
    #expect(try authorization(transport.handshakeRequests[1]) == "Bearer bob")
    #expect(try addedTargets(transport.handshakeRequests[1]).map(\.targetID) == [2])
    // No back channel was reopened on the old session.
    #expect(transport.backChannelRequests.filter { FakeWebChannelTransport.params($0)["SID"] == "SID1" }.count == 1)
    #expect(sleeps.value == 0)
    #expect(received.failures.isEmpty)
  }

  @Test("UNAUTHENTICATED refreshes the token and reconnects at once, then backs off until data flows")
  func unauthenticated() async throws {
    let (transport, tokens, sleeps, db) = watchedClient()
    // The first two back channels answer 401: the first gets an immediate new session with a
    // refreshed token; the second (no data in between) goes through the backoff.
    transport.rejectNextBackChannel(status: 401)
    transport.rejectNextBackChannel(status: 401)
    let received = Received()
    let registration = db.document("rooms/r1").addSnapshotListener { received.record($0, $1) }
    defer { registration.remove() }
    try await eventually("a third session") { transport.sessionCount == 3 }
    #expect(sleeps.value == 1)
    #expect(tokens.calls == [false, true, true])
    #expect(try transport.handshakeRequests.map(authorization) == ["Bearer alice", "Bearer alice+", "Bearer alice++"])

    // Data flows, then the stream fails UNAUTHENTICATED: immediate again.
    try await eventually("the third back channel") { transport.backChannelCount == 1 }
    transport.push([(1, add(2)), (2, change(2, value: 1, second: 1)), (3, current(2)), (4, global(1))])
    try await eventually("the first snapshot") { received.snapshots.count == 1 }
    transport.push([(5, #"{"error":{"code":16,"status":"UNAUTHENTICATED","message":"token expired"}}"#)])
    try await eventually("a fourth session") { transport.sessionCount == 4 }
    #expect(sleeps.value == 1)
    #expect(try authorization(transport.handshakeRequests[3]) == "Bearer alice+++")

    // A forward POST answering 401 does the same once data has flowed again.
    try await eventually("the fourth back channel") { transport.backChannelCount == 2 }
    transport.push([(1, add(2)), (2, change(2, value: 2, second: 2)), (3, current(2)), (4, global(2))])
    try await eventually("the data on the fourth session delivered") { received.snapshots.count == 2 }
    transport.rejectNextForwardPOST(status: 401)
    let other = db.document("rooms/r2").addSnapshotListener { _, _ in }
    defer { other.remove() }
    try await eventually("a fifth session") { transport.sessionCount == 5 }
    #expect(sleeps.value == 1)
    #expect(try addedTargets(transport.handshakeRequests[4]).map(\.targetID) == [2, 4])
    #expect(received.failures.isEmpty)
  }

  @Test("a forward POST that never answers times out; the session is replaced with every target")
  func forwardPOSTTimeout() async throws {
    let transport = FakeWebChannelTransport()
    defer { transport.releaseHeld() }
    let db = firestore(transport)
    // The request timeout passes when the test says so, once the forward POST is held.
    let timer = ManualTimer()
    await db.listenManager.setRequestTimer { try await timer.wait($0) }
    let (received, registration) = try await firstListener(db, transport)
    defer { registration.remove() }

    transport.holdNextForwardPOST()
    let (other, otherRegistration) = secondListener(db)
    defer { otherRegistration.remove() }
    try await eventually("the held forward POST") { transport.forwardRequests.count == 1 }
    // The handshake's timer ended with its reply; the one left is the forward POST's.
    try await eventually("the forward POST's timer") { timer.pending.count == 1 }
    #expect(timer.pending == [ListenChannel.Configuration.defaultRequestTimeout])
    #expect(transport.sessionCount == 1)
    timer.expireAll()
    try await eventually("a new session") { transport.sessionCount == 2 }
    try expectReplacedWithBothTargets(transport)

    try await answerBothTargets(transport, other)
    try await expectOnlySentinelAfter(1, received, transport, firstArray: 8)
    #expect(received.failures.isEmpty && other.failures.isEmpty)
    #expect(await db.listenManager.handshakeCount == 2)
  }
}
