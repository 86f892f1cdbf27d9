import FirestoreTestSupport
import FirestoreWire
import Foundation
import Testing

@testable import FirestoreMock

/// The mock's Listen WebChannel: handshake, initial snapshots, incremental changes,
/// resume, back-channel reopen, terminate, errors and faults.
@Suite(.serialized)
struct ListenChannelTests {
  private typealias Kind = ListenResponse.TargetChange.Kind

  /// `pop >= 3` on `cities`.
  private static let popAtLeast3 =
    #"{"fieldFilter":{"field":{"fieldPath":"pop"},"op":"GREATER_THAN_OR_EQUAL","value":{"integerValue":"3"}}}"#

  /// Runs `body` against a fresh server, stopping it afterwards (off the test's thread:
  /// stop waits for the server's threads).
  private func withServer(
    backChannelWait: Duration = .seconds(45), clock: MockClock = .continuous, _ body: (MockFirestoreServer) async throws -> Void
  ) async throws {
    let server = try MockFirestoreServer.start(backChannelWait: backChannelWait, clock: clock)
    try await withStopping(server, stop: { $0.stop() }, body)
  }

  private func targetChange(_ response: ListenResponse) throws -> ListenResponse.TargetChange {
    guard case .targetChange(let change) = response else { throw Unexpected(response) }
    return change
  }

  private func changedName(_ response: ListenResponse) -> String? {
    if case .documentChange(let c) = response { return c.document.name }
    return nil
  }

  /// Checks the tail of an initial snapshot: CURRENT for `id` then the global NO_CHANGE;
  /// returns CURRENT's resume token.
  private func expectCurrentAndGlobal(_ client: ListenChannelClient, _ id: Int32) async throws -> Data {
    let current = try await targetChange(client.next())
    #expect(current.kind == .current && current.targetIDs == [id] && current.readTime != nil)
    try await expectGlobal(client)
    return try #require(current.resumeToken)
  }

  /// A session listening to the empty `cities` (target 2) whose back channel delivered the
  /// target's add, CURRENT and global snapshot, and the open's noop after them.
  private func listenToCities(_ server: MockFirestoreServer) async throws -> ListenChannelClient {
    let client = ListenChannelClient(port: server.port)
    _ = try await client.handshake([client.addQuery(2, collection: "cities")])
    try await client.openBackChannel()
    #expect(try await targetChange(client.next()) == .init(kind: .add, targetIDs: [2]))
    _ = try await expectCurrentAndGlobal(client, 2)
    _ = try await client.nextEntry()  // the open's noop, in the same frame
    return client
  }

  /// Checks that the back channel ended broken and that the session survives it: a reopened
  /// back channel delivers the next change to `cities`.
  private func expectBrokenAndResumed(_ client: ListenChannelClient) async throws {
    await #expect(throws: ListenChannelClient.BackChannelEnd.broken) { try await client.next() }
    try await client.openBackChannel()
    try await client.commit([client.set("cities/c1", pop: 1)])
    #expect(try await changedName(client.next()) == client.documentsRoot + "/cities/c1")
  }

  private func expectGlobal(_ client: ListenChannelClient) async throws {
    let global = try await targetChange(client.next())
    #expect(global.kind == .noChange && global.targetIDs.isEmpty && global.readTime != nil && global.resumeToken != nil)
  }

  private struct Unexpected: Error, CustomStringConvertible {
    let description: String
    init(_ response: ListenResponse) { description = "unexpected \(response.json)" }
    init(_ message: WebChannelMessage) { description = "unexpected \(message)" }
  }

  @Test func handshakeReturnsCreated() async throws {
    try await withServer { server in
      let client = ListenChannelClient(port: server.port)
      let created = try await client.handshake()
      guard case .created(let sid, let prefix, let version, let serverVersion, let keepAlive) = created else {
        Issue.record("not created: \(created)")
        return
      }
      #expect(!sid.isEmpty && prefix.isEmpty && version == 8 && serverVersion == 12 && keepAlive == 30_000)
      #expect(server.listenSessionCount == 1)
      let (status, reply) = try await client.send([])
      #expect(status == 200 && reply == WebChannelForwardReply(backChannelPresent: false, lastArrayID: 0))
      let unknown = ListenChannelClient(port: server.port)
      unknown.sessionID = "nope"
      #expect(try await unknown.openBackChannel() == 400)
      #expect(try await unknown.send([]).0 == 400)
    }
  }

  @Test func queryTargetInitialSnapshotThenIncrementalChanges() async throws {
    try await withServer { server in
      let client = ListenChannelClient(port: server.port)
      try await client.commit([client.set("cities/c1", pop: 1), client.set("cities/c2", pop: 5), client.set("towns/t1", pop: 9)])
      _ = try await client.handshake([client.addQuery(2, collection: "cities")])
      #expect(try await client.openBackChannel() == 200)
      #expect(try await targetChange(client.next()) == .init(kind: .add, targetIDs: [2]))
      let docs = try await client.next(2)
      #expect(docs.map(changedName) == [client.documentsRoot + "/cities/c1", client.documentsRoot + "/cities/c2"])
      if case .documentChange(let c) = docs[0] { #expect(c.targetIDs == [2] && c.document.fields["pop"] == .integer(1)) }
      _ = try await expectCurrentAndGlobal(client, 2)

      // A second, filtered target on the open session.
      try await client.send([client.addQuery(4, collection: "cities", where: Self.popAtLeast3)])
      #expect(try await targetChange(client.next()) == .init(kind: .add, targetIDs: [4]))
      #expect(try await changedName(client.next()) == client.documentsRoot + "/cities/c2")
      _ = try await expectCurrentAndGlobal(client, 4)

      // An update: one documentChange per target that holds the document, then one global.
      try await client.commit([client.set("cities/c1", pop: 10)])
      let updates = try await client.next(2)
      for update in updates {
        guard case .documentChange(let c) = update else { throw Unexpected(update) }
        #expect(c.document.name == client.documentsRoot + "/cities/c1" && c.document.fields["pop"] == .integer(10))
      }
      #expect(Set(updates.compactMap { if case .documentChange(let c) = $0 { c.targetIDs } else { nil } }) == [[Int32(2)], [Int32(4)]])
      try await expectGlobal(client)

      // c2 leaves the filtered target but stays in the other: documentChange for 2, documentRemove for 4.
      try await client.commit([client.set("cities/c2", pop: 0)])
      let moved = try await client.next(2)
      #expect(moved.contains { if case .documentChange(let c) = $0 { c.targetIDs == [2] } else { false } })
      #expect(
        moved.contains {
          if case .documentRemove(let r) = $0 {
            r.document == client.documentsRoot + "/cities/c2" && r.removedTargetIDs == [4] && r.readTime != nil
          } else {
            false
          }
        })
      try await expectGlobal(client)

      // A delete: documentDelete for each target that held it.
      try await client.commit([client.delete("cities/c1")])
      let deletes = try await client.next(2)
      for delete in deletes {
        guard case .documentDelete(let d) = delete else { throw Unexpected(delete) }
        #expect(d.document == client.documentsRoot + "/cities/c1" && d.readTime != nil)
      }
      try await expectGlobal(client)

      // Writes elsewhere send nothing; removeTarget sends REMOVE.
      try await client.commit([client.set("towns/t2", pop: 1)])
      try await client.send([client.removeTarget(4)])
      #expect(try await targetChange(client.next()) == .init(kind: .remove, targetIDs: [4]))
      try await client.commit([client.set("cities/c9", pop: 100)])
      let added = try await client.next()
      guard case .documentChange(let c) = added else { throw Unexpected(added) }
      #expect(c.targetIDs == [2])
      try await expectGlobal(client)
    }
  }

  @Test func documentsTarget() async throws {
    try await withServer { server in
      let client = ListenChannelClient(port: server.port)
      try await client.commit([client.set("cities/c1", pop: 1)])
      _ = try await client.handshake([client.addDocuments(6, ["cities/c1", "cities/nope"])])
      try await client.openBackChannel()
      #expect(try await targetChange(client.next()) == .init(kind: .add, targetIDs: [6]))
      #expect(try await changedName(client.next()) == client.documentsRoot + "/cities/c1")
      let missing = try await client.next()
      guard case .documentDelete(let d) = missing else { throw Unexpected(missing) }
      #expect(d.document == client.documentsRoot + "/cities/nope" && d.removedTargetIDs == [6] && d.readTime != nil)
      _ = try await expectCurrentAndGlobal(client, 6)

      try await client.commit([client.delete("cities/c1")])
      let deleted = try await client.next()
      guard case .documentDelete(let gone) = deleted else { throw Unexpected(deleted) }
      #expect(gone.document == client.documentsRoot + "/cities/c1" && gone.removedTargetIDs == [6])
      try await expectGlobal(client)
      try await client.commit([client.set("cities/nope", pop: 2)])
      #expect(try await changedName(client.next()) == client.documentsRoot + "/cities/nope")
      try await expectGlobal(client)
    }
  }

  @Test func resumeTokenSendsOnlyLaterChanges() async throws {
    try await withServer { server in
      let client = ListenChannelClient(port: server.port)
      try await client.commit([client.set("cities/c1", pop: 1), client.set("cities/c2", pop: 2), client.set("cities/c3", pop: 3)])
      _ = try await client.handshake([client.addQuery(2, collection: "cities")])
      try await client.openBackChannel()
      _ = try await client.next(4)
      let token = try await expectCurrentAndGlobal(client, 2)
      try await client.send([client.removeTarget(2)])
      #expect(try await targetChange(client.next()).kind == .remove)

      try await client.commit([client.set("cities/c2", pop: 20), client.delete("cities/c3"), client.set("cities/c4", pop: 4)])
      try await client.send([client.addQuery(2, collection: "cities", resumeToken: token)])
      #expect(try await targetChange(client.next()) == .init(kind: .add, targetIDs: [2]))
      let changes = try await client.next(3)
      #expect(changes.prefix(2).map(changedName) == [client.documentsRoot + "/cities/c2", client.documentsRoot + "/cities/c4"])
      guard case .documentDelete(let d) = changes[2] else { throw Unexpected(changes[2]) }
      #expect(d.document == client.documentsRoot + "/cities/c3")
      _ = try await expectCurrentAndGlobal(client, 2)

      // A token the mock did not issue starts over: RESET, then every document.
      try await client.send([client.addQuery(8, collection: "cities", resumeToken: Data([1, 2, 3]))])
      #expect(try await targetChange(client.next()) == .init(kind: .add, targetIDs: [8]))
      #expect(try await targetChange(client.next()) == .init(kind: .reset, targetIDs: [8]))
      #expect(try await client.next(3).compactMap(changedName).count == 3)
      _ = try await expectCurrentAndGlobal(client, 8)
    }
  }

  @Test func backChannelEndsAfterWaitAndReopenResumes() async throws {
    let clock = MockClock.manual()
    try await withServer(backChannelWait: .milliseconds(300), clock: clock) { server in
      let client = ListenChannelClient(port: server.port)
      try await client.commit([client.set("cities/c1", pop: 1)])
      _ = try await client.handshake([client.addQuery(2, collection: "cities")])
      try await client.openBackChannel()
      _ = try await client.next(2)
      _ = try await expectCurrentAndGlobal(client, 2)
      // Idle past the wait: still open; the first flush after it ends the response.
      clock.advance(by: .milliseconds(300))
      try await client.commit([client.set("cities/c2", pop: 2)])
      #expect(try await changedName(client.next()) == client.documentsRoot + "/cities/c2")
      try await expectGlobal(client)
      await #expect(throws: ListenChannelClient.BackChannelEnd.clean) { try await client.next() }

      // Written while no back channel is open: delivered on the reopen, once, in order.
      try await client.commit([client.set("cities/c3", pop: 3)])
      let before = client.lastArrayID
      try await client.openBackChannel()
      let entry = try await client.nextEntry()
      #expect(entry.id == before + 1)
      guard case .data(let json) = entry.message else { throw Unexpected(entry.message) }
      #expect(changedName(try ListenResponse(json: json)) == client.documentsRoot + "/cities/c3")
      try await expectGlobal(client)
      #expect(try await client.nextEntry().message == .noop)

      // Reopening with an older AID re-sends every array above it.
      client.lastArrayID = before
      try await client.openBackChannel()
      #expect(try await client.nextEntry().id == before + 1)
    }
  }

  @Test func terminateEndsSession() async throws {
    try await withServer { server in
      let client = ListenChannelClient(port: server.port)
      _ = try await client.handshake([client.addQuery(2, collection: "cities")])
      try await client.openBackChannel()
      _ = try await client.next()
      _ = try await expectCurrentAndGlobal(client, 2)
      #expect(try await client.terminate() == 200)
      await #expect(throws: ListenChannelClient.BackChannelEnd.clean) { try await client.next() }
      #expect(server.listenSessionCount == 0)
      #expect(try await client.send([]).0 == 400)
      #expect(try await client.openBackChannel() == 400)
      #expect(try await client.terminate() == 400)
    }
  }

  @Test func invalidTargetsAreRemovedWithCause() async throws {
    try await withServer { server in
      let client = ListenChannelClient(port: server.port)
      let twoNotEqual =
        #"{"compositeFilter":{"op":"AND","filters":[{"fieldFilter":{"field":{"fieldPath":"a"},"op":"NOT_EQUAL","value":{"integerValue":"1"}}},"#
        + #"{"fieldFilter":{"field":{"fieldPath":"b"},"op":"NOT_EQUAL","value":{"integerValue":"1"}}}]}}"#
      _ = try await client.handshake([client.addQuery(2, collection: "cities", where: twoNotEqual), client.addDocuments(3, ["cities"])])
      try await client.openBackChannel()
      for id: Int32 in [2, 3] {
        #expect(try await targetChange(client.next()) == .init(kind: .add, targetIDs: [id]))
        let removed = try await targetChange(client.next())
        #expect(removed.kind == .remove && removed.targetIDs == [id] && removed.cause?.code == 3)
        #expect(removed.cause?.message.isEmpty == false)
      }
      // The stream goes on; a used target id is a stream error.
      try await client.send([client.addQuery(5, collection: "cities"), client.addQuery(5, collection: "cities")])
      #expect(try await targetChange(client.next()) == .init(kind: .add, targetIDs: [5]))
      _ = try await expectCurrentAndGlobal(client, 5)
      let error = try await client.nextData()
      #expect(error["error"]?["status"]?.stringValue == "INVALID_ARGUMENT")
    }
  }

  @Test func forwardMessagesAreDeduplicatedAndReordered() async throws {
    try await withServer { server in
      let client = ListenChannelClient(port: server.port)
      _ = try await client.handshake()
      try await client.openBackChannel()
      client.mapID = 1
      try await client.send([client.addQuery(3, collection: "b")])  // map id 1: held until 0 arrives
      client.mapID = 0
      try await client.send([client.addQuery(2, collection: "a")])
      client.mapID = 0
      try await client.send([client.addQuery(2, collection: "a")])  // duplicate map id 0: ignored
      #expect(try await targetChange(client.next()) == .init(kind: .add, targetIDs: [2]))
      _ = try await expectCurrentAndGlobal(client, 2)
      #expect(try await targetChange(client.next()) == .init(kind: .add, targetIDs: [3]))
      _ = try await expectCurrentAndGlobal(client, 3)
      client.mapID = 2
      try await client.send([client.removeTarget(2)])
      #expect(try await targetChange(client.next()) == .init(kind: .remove, targetIDs: [2]))
    }
  }

  @Test func dropAfterFramesFaultCutsBackChannel() async throws {
    try await withServer { server in
      let text = #"{"route":"GET /google.firestore.v1.Firestore/Listen/channel","dropAfterFrames":1,"remaining":1}"#
      let rule = try FaultRule.parse(json: JSONParser.parse(text))
      #expect(rule.fault == .dropAfterFrames(1))
      #expect(try FaultRule.parse(json: rule.json) == rule)
      server.faults.add(rule)
      let client = try await listenToCities(server)
      try await expectBrokenAndResumed(client)
    }
  }

  @Test func adminCutEndsOpenBackChannelsAndTheSessionGoesOn() async throws {
    try await withServer { server in
      let client = try await listenToCities(server)
      let http = try await RawHTTPClient(port: server.port)
      try await http.send("POST /mock/v1/listen:cut HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 0\r\n\r\n")
      #expect(try await http.readResponse().status == 200)
      try await expectBrokenAndResumed(client)
    }
  }

  @Test("ending the back channels also ends one that arrived before but starts streaming after")
  func endReachesBackChannelsThatArrivedBefore() async throws {
    try await withServer { server in
      let client = try await listenToCities(server)
      // The reopened back channel is held after it arrived, as a busy server's thread
      // would leave it, until the channels were ended.
      server.faults.add(FaultRule(route: "GET /google.firestore.v1.Firestore/Listen/channel", fault: .hold("late"), remaining: 1))
      let params = WebChannelURL.backChannel(
        database: client.database, sessionID: client.sessionID, lastArrayID: client.lastArrayID, zx: "zx")
      let late = try await RawHTTPClient(port: server.port)
      try await late.send("GET \(WebChannelURL.path)?\(WebChannelURL.query(params)) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
      try await eventually("the reopened back channel to reach the hold") { server.faults.arrivals(at: "late") == 1 }
      server.endListenBackChannels()
      server.faults.release("late")

      #expect(try await late.readHead().status == 200)
      try await client.commit([client.set("cities/c1", pop: 1)])
      var body: [UInt8] = []
      while let chunk = try await late.readChunk() { body += chunk }
      #expect(body.isEmpty, "the late back channel streamed: \(String(decoding: body, as: UTF8.self))")

      // The session goes on: a back channel opened now delivers the change.
      try await client.openBackChannel()
      #expect(try await changedName(client.next()) == client.documentsRoot + "/cities/c1")
    }
  }

  @Test func closeSessionFaultForgetsSession() async throws {
    try await withServer { server in
      server.faults.add(FaultRule(route: "GET /google.firestore.v1.Firestore/Listen/channel", fault: .closeSessionAfterFrames(1)))
      let client = ListenChannelClient(port: server.port)
      _ = try await client.handshake([client.addQuery(2, collection: "cities")])
      try await client.openBackChannel()
      _ = try await client.next()
      _ = try await expectCurrentAndGlobal(client, 2)
      await #expect(throws: ListenChannelClient.BackChannelEnd.clean) { try await client.next() }
      #expect(try await client.send([]).0 == 400)
      #expect(server.listenSessionCount == 0)
    }
  }

  @Test func stallAfterFramesHoldsUntilReplaced() async throws {
    try await withServer { server in
      server.faults.add(FaultRule(route: "GET /google.firestore.v1.Firestore/Listen/channel", fault: .stallAfterFrames(0), remaining: 1))
      let client = ListenChannelClient(port: server.port)
      _ = try await client.handshake([client.addQuery(2, collection: "cities")])
      try await client.openBackChannel()
      let stalled = try #require(client.detachBackChannel())
      // The server says the back channel is open only once it holds it, the target's
      // changes already queued for it.
      try await eventually("the server holds the stalled back channel") { try await client.send([]).1?.backChannelPresent == true }
      try await client.openBackChannel()
      #expect(try await targetChange(client.next()) == .init(kind: .add, targetIDs: [2]))
      // Replaced, the stalled one ends cleanly, having sent nothing of what was queued.
      #expect(try await stalled.readChunk() == nil)
    }
  }

  @Test func resetDeletesListenedDocumentsAndNonASCIIIsFramedInUTF16() async throws {
    try await withServer { server in
      let client = ListenChannelClient(port: server.port)
      let name = client.documentsRoot + "/cities/c1"
      try await client.commit([#"{"update":{"name":"\#(name)","fields":{"s":{"stringValue":"é😀"}}}}"#])
      _ = try await client.handshake([client.addQuery(2, collection: "cities")])
      try await client.openBackChannel()
      _ = try await client.next()
      let change = try await client.next()
      guard case .documentChange(let c) = change else { throw Unexpected(change) }
      #expect(c.document.fields["s"] == .string("é😀"))
      _ = try await expectCurrentAndGlobal(client, 2)
      server.reset(projectID: "demo")
      let deleted = try await client.next()
      guard case .documentDelete(let d) = deleted else { throw Unexpected(deleted) }
      #expect(d.document == name && d.removedTargetIDs == [2])
      try await expectGlobal(client)
    }
  }

  @Test func handshakeParameterErrorsAndAdminFaultJSON() async throws {
    try await withServer { server in
      let client = ListenChannelClient(port: server.port)
      #expect(try await client.request("POST", [("VER", "8"), ("RID", "1")]).status == 400)
      let noVersion = try await client.request("POST", [("database", client.database), ("RID", "1")])
      #expect(noVersion.status == 200 && noVersion.body.isEmpty)
      #expect(server.listenSessionCount == 0)

      let http = try await RawHTTPClient(port: server.port)
      let body = #"{"route":"Listen","stallAfterFrames":2}"#
      try await http.send(
        "POST /mock/v1/faults HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
      #expect(try await http.readResponse().status == 200)
      #expect(server.faults.rules == [FaultRule(route: "Listen", fault: .stallAfterFrames(2))])
      #expect(throws: (any Error).self) { try FaultRule.parse(json: JSONParser.parse(#"{"dropAfterFrames":-1}"#)) }
    }
  }

  @Test func serverStopEndsBlockedBackChannel() async throws {
    var configuration = MockHTTPServerConfiguration()
    configuration.stopTimeoutMilliseconds = 120_000  // no stalled scheduler reaches it
    let server = try MockFirestoreServer.start(configuration: configuration)
    let client = ListenChannelClient(port: server.port)
    _ = try await client.handshake()
    try await client.openBackChannel()
    _ = try await client.nextEntry()
    // Every thread finishes, the blocked back channel's included, rather than stop()
    // giving up on it.
    #expect(await Blocking.run { server.stop() })
    await #expect(throws: ListenChannelClient.BackChannelEnd.self) { try await client.next() }
  }
}
