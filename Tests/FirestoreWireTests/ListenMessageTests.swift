import Foundation
import Testing

@testable import FirestoreWire

@Suite("Listen messages")
struct ListenMessageTests {
  private let db = "projects/demo/databases/(default)"

  private func roundTrip(_ text: String) throws -> String {
    JSONWriter.string(try ListenResponse(json: JSONParser.parse(text)).json)
  }

  @Test("addTarget with a query, from the emulator transcript, reads and writes back byte for byte")
  func addQueryTarget() throws {
    let text =
      #"{"database":"projects/demo/databases/(default)","addTarget":{"query":{"parent":"projects/demo/databases/(default)/documents","#
      + #""structuredQuery":{"from":[{"collectionId":"cities"}],"where":{"fieldFilter":{"field":{"fieldPath":"pop"},"#
      + #""op":"GREATER_THAN_OR_EQUAL","value":{"integerValue":"3"}}}}},"targetId":4}}"#
    let request = try ListenRequest(json: JSONParser.parse(text))
    guard case .addTarget(let target) = request.change else {
      Issue.record("expected addTarget")
      return
    }
    #expect(request.database == db)
    #expect(target.targetID == 4)
    #expect(
      target.kind
        == .query(
          parent: db + "/documents",
          StructuredQuery(from: [.init(collectionID: "cities")], filter: .field(path: "pop", op: .greaterThanOrEqual, value: .integer(3)))))
    #expect(JSONWriter.string(request.json) == text)
  }

  @Test("removeTarget reads and writes back")
  func removeTarget() throws {
    let text = #"{"database":"projects/demo/databases/(default)","removeTarget":4}"#
    let request = try ListenRequest(json: JSONParser.parse(text))
    #expect(request == ListenRequest(database: db, change: .removeTarget(4)))
    #expect(JSONWriter.string(request.json) == text)
  }

  @Test("a documents target with resume token, once and expectedCount round trips")
  func documentsTarget() throws {
    let target = Target(
      targetID: 6, kind: .documents([db + "/documents/cities/c1", db + "/documents/cities/nope"]),
      resumeToken: Value.decodeBase64("CgkIv6LHpNyumAM="), once: true, expectedCount: 1)
    let request = ListenRequest(database: db, change: .addTarget(target))
    let text = JSONWriter.string(request.json)
    #expect(text.contains(#""documents":{"documents":["#))
    #expect(text.contains(#""targetId":6,"resumeToken":"CgkIv6LHpNyumAM=","once":true,"expectedCount":1"#))
    #expect(try ListenRequest(json: JSONParser.parse(text)) == request)
  }

  @Test("resumeToken and readTime are one oneof: only the token is written")
  func resumeOneof() throws {
    let time = Timestamp(seconds: 1_700_000_000, nanoseconds: 5_000)
    var target = Target(targetID: 2, kind: .documents(["n"]), resumeToken: Data([1, 2]), readTime: time)
    #expect(target.json["readTime"] == nil)
    #expect(target.json["resumeToken"] == .string("AQI="))
    target.resumeToken = nil
    #expect(try Target(json: target.json) == target)
  }

  @Test("malformed requests are rejected")
  func badRequests() throws {
    #expect(throws: WireFormatError.self) { try ListenRequest(json: JSONParser.parse(#"{"database":"d"}"#)) }
    #expect(throws: WireFormatError.self) {
      try ListenRequest(json: JSONParser.parse(#"{"database":"d","removeTarget":1,"addTarget":{"documents":{},"targetId":1}}"#))
    }
    #expect(throws: WireFormatError.self) { try ListenRequest(json: JSONParser.parse(#"{"database":"d","removeTarget":4294967296}"#)) }
    #expect(throws: WireFormatError.self) { try Target(json: JSONParser.parse(#"{"documents":{"documents":["a"]}}"#)) }
  }

  @Test(
    "emulator back-channel messages read and write back byte for byte",
    arguments: [
      #"{"targetChange":{"targetChangeType":"ADD","targetIds":[2]}}"#,
      #"{"documentChange":{"document":{"name":"projects/demo/databases/(default)/documents/cities/c1","#
        + #""fields":{"name":{"stringValue":"city1"},"pop":{"integerValue":"1"}},"#
        + #""createTime":"2026-11-30T03:10:00.872192Z","updateTime":"2026-11-30T03:10:00.872192Z"},"targetIds":[2]}}"#,
      #"{"targetChange":{"targetChangeType":"CURRENT","targetIds":[2],"resumeToken":"CgkI87WJ+duumAM=","#
        + #""readTime":"2026-11-30T03:10:06.031603Z"}}"#,
      #"{"targetChange":{"resumeToken":"CgkI0M+J+duumAM=","readTime":"2026-11-30T03:10:06.034896Z"}}"#,
      #"{"documentDelete":{"document":"projects/demo/databases/(default)/documents/cities/nope","#
        + #""readTime":"2026-11-30T03:11:37.187146Z","removedTargetIds":[6]}}"#,
      #"{"targetChange":{"targetChangeType":"REMOVE","targetIds":[4]}}"#,
      #"{"targetChange":{"targetChangeType":"RESET","targetIds":[2],"resumeToken":"CgkIrvjZo92umAM=","#
        + #""readTime":"2026-11-30T03:11:26.896199Z"}}"#,
    ])
  func emulatorTranscript(_ text: String) throws {
    #expect(try roundTrip(text) == text)
  }

  @Test("the global target change is a consistency point; a targeted one is not")
  func globalChange() throws {
    let global = try ListenResponse(
      json: JSONParser.parse(#"{"targetChange":{"resumeToken":"CgkI0M+J+duumAM=","readTime":"2026-11-30T03:10:06.034896Z"}}"#))
    guard case .targetChange(let change) = global else {
      Issue.record("expected targetChange")
      return
    }
    #expect(change.kind == .noChange && change.isGlobalConsistencyPoint)
    #expect(change.resumeToken == Value.decodeBase64("CgkI0M+J+duumAM="))
    #expect(!ListenResponse.TargetChange(kind: .current, readTime: change.readTime).isGlobalConsistencyPoint)
    #expect(!ListenResponse.TargetChange(targetIDs: [2], readTime: change.readTime).isGlobalConsistencyPoint)
  }

  @Test("REMOVE with cause, documentRemove and filter round trip")
  func otherKinds() throws {
    let remove = #"{"targetChange":{"targetChangeType":"REMOVE","targetIds":[2],"cause":{"code":7,"message":"denied"}}}"#
    #expect(
      try ListenResponse(json: JSONParser.parse(remove))
        == .targetChange(.init(kind: .remove, targetIDs: [2], cause: .init(code: 7, message: "denied"))))
    #expect(try roundTrip(remove) == remove)
    let documentRemove = #"{"documentRemove":{"document":"n","readTime":"2026-11-30T03:10:06.034896Z","removedTargetIds":[2,3]}}"#
    #expect(try roundTrip(documentRemove) == documentRemove)
    let filter = #"{"filter":{"targetId":2,"count":3}}"#
    #expect(try ListenResponse(json: JSONParser.parse(filter)) == .filter(.init(targetID: 2, count: 3)))
    #expect(try roundTrip(filter) == filter)
    // Proto3 JSON omits a zero count; extra members (the bloom filter) are read past.
    #expect(
      try ListenResponse(json: JSONParser.parse(#"{"filter":{"targetId":2,"unchangedNames":{"hashCount":1}}}"#))
        == .filter(.init(targetID: 2, count: 0)))
  }

  @Test("unknown or malformed responses are rejected")
  func badResponses() throws {
    #expect(throws: WireFormatError.self) { try ListenResponse(json: JSONParser.parse(#"{"somethingNew":{}}"#)) }
    #expect(throws: WireFormatError.self) { try ListenResponse(json: JSONParser.parse(#"{"targetChange":{"targetChangeType":"BOGUS"}}"#)) }
    #expect(throws: WireFormatError.self) { try ListenResponse(json: JSONParser.parse(#"{"targetChange":{"resumeToken":"%%%"}}"#)) }
    #expect(throws: WireFormatError.self) { try ListenResponse(json: JSONParser.parse(#"{"documentChange":{"targetIds":[1]}}"#)) }
  }
}
