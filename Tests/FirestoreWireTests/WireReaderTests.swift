import Foundation
import Testing

@testable import FirestoreWire

/// The byte-level wire decoder (`JSONReader` and the `init(reading:)` decoders) against the
/// tree decoder it replaces on the hot paths: the same results, and errors for the same
/// inputs.
@Suite("Wire decoder straight from bytes")
struct WireReaderTests {
  private func viaReader(_ text: String) throws -> Document {
    try Array(text.utf8).withUnsafeBufferPointer { try Document(jsonBytes: $0) }
  }

  private func viaTree(_ text: String) throws -> Document {
    try Document(json: JSONParser.parse(text))
  }

  /// Every Value kind, escapes, non-ASCII text, the special doubles, nesting, members in
  /// any order and members the decoders do not know.
  static let documents = [
    #"{"name":"projects/p/databases/(default)/documents/c/d"}"#,
    #"""
    {"fields": {"s": {"stringValue": "plain"}, "e": {"stringValue": "q\" b\\ s\/ n\n t\t u\u00e9 \ud83d\ude00 \u0000"},
     "u": {"stringValue": "é日本😀 — longer than eight bytes of UTF-8 text, to cross the word scan"},
     "i": {"integerValue": "-9223372036854775808"}, "j": {"integerValue": 42}, "d": {"doubleValue": -2.5e-3},
     "nan": {"doubleValue": "NaN"}, "inf": {"doubleValue": "-Infinity"}, "ds": {"doubleValue": "1.5"},
     "b": {"booleanValue": false}, "n": {"nullValue": null}, "t": {"timestampValue": "2024-02-29T23:59:59.123456789+01:30"},
     "by": {"bytesValue": "AAEC_-8="}, "r": {"referenceValue": "projects/p/databases/(default)/documents/c/x"},
     "g": {"geoPointValue": {"latitude": 48.85, "longitude": 2.35, "extra": [1, {"x": null}]}},
     "g0": {"geoPointValue": {}},
     "a": {"arrayValue": {"values": [{"integerValue": "1"}, {"arrayValue": {}}, {"mapValue": {"fields": {"k": {"nullValue": null}}}}]}},
     "ae": {"arrayValue": {}}, "me": {"mapValue": {}},
     "m": {"mapValue": {"fields": {"deep": {"mapValue": {"fields": {"x": {"booleanValue": true}}}}}, "unknown": "kept out"}},
     "dup": {"integerValue": "1"}, "dup": {"integerValue": "2"}},
     "updateTime": "2026-11-30T06:53:34.384950Z", "unknownMember": {"a": [true, false, null, -0.0e+1, "s"]},
     "name": "projects/p/databases/(default)/documents/c/\u00e9", "createTime": "2026-11-30T06:53:34Z"}
    """#,
  ]

  /// Found by the `wire_json` fuzz target: with a member given twice, the byte decoder
  /// took the last one (and failed on it) where the tree decoder takes the first.
  static let repeatedMembers = [
    """
    {"name": "pr6-11-30T10:03:5539684.5Z", "updateTime": "2026-11-30T10:03:55.3Z",
     "updateTime": "2026-113T0:-0103:55.317089Z"}
    """,
    #"{"name":"n","name":7,"createTime":"2026-11-30T10:03:55Z","createTime":[],"fields":{"a":{"nullValue":null}},"fields":5}"#,
    #"{"name":"n","fields":{"g":{"geoPointValue":{"latitude":1,"latitude":"x","longitude":2,"longitude":{}}}}}"#,
    #"{"name":"n","fields":{"a":{"arrayValue":{"values":[{"integerValue":"1"}],"values":7}}}}"#,
    #"{"name":"n","fields":{"m":{"mapValue":{"fields":{"k":{"booleanValue":true}},"fields":null}}}}"#,
    #"{"name":"n","fields":{"k":{"integerValue":"1"},"k":{"integerValue":"2"}}}"#,
  ]

  @Test("a repeated member: the first one counts, as in the tree decoder", arguments: repeatedMembers)
  func repeatedMember(text: String) throws {
    #expect(try viaReader(text) == viaTree(text))
  }

  @Test("a repeated member of a runQuery or batchGet element: the first one counts")
  func repeatedReplyMembers() throws {
    let runQuery = #"[{"readTime":"2026-11-30T07:12:32Z","readTime":"bad","done":true,"done":"x","skippedResults":1,"skippedResults":[]}]"#
    let fromReader = try Array(runQuery.utf8).withUnsafeBufferPointer { try RunQueryResponse.decodeArray($0) }
    #expect(fromReader == (try JSONParser.parse(runQuery).arrayValue?.map(RunQueryResponse.init(json:))))
    let batchGet = #"[{"missing":"projects/p/databases/(default)/documents/c/d","missing":1,"readTime":"2026-11-30T07:12:32Z"}]"#
    let gets = try Array(batchGet.utf8).withUnsafeBufferPointer { try BatchGetResponse.decodeArray($0) }
    #expect(gets == (try JSONParser.parse(batchGet).arrayValue?.map(BatchGetResponse.init(json:))))
  }

  @Test("decodes documents exactly as the tree decoder does", arguments: documents)
  func sameDocuments(text: String) throws {
    #expect(try viaReader(text) == viaTree(text))
  }

  /// Invalid JSON and valid JSON of the wrong shape.
  static let rejected = [
    "", "{", "[]", "null", #"{"name":1}"#, #"{"fields":{}}"#, #"{"name":"n","fields":[]}"#,
    #"{"name":"n","fields":{"a":{}}}"#, #"{"name":"n","fields":{"a":{"stringValue":"x","integerValue":"1"}}}"#,
    #"{"name":"n","fields":{"a":{"integerValue":"1.5"}}}"#, #"{"name":"n","fields":{"a":{"integerValue":"9223372036854775808"}}}"#,
    #"{"name":"n","fields":{"a":{"doubleValue":"many"}}}"#, #"{"name":"n","fields":{"a":{"booleanValue":"true"}}}"#,
    #"{"name":"n","fields":{"a":{"timestampValue":"2024-02-30T00:00:00Z"}}}"#,
    #"{"name":"n","fields":{"a":{"bytesValue":"A"}}}"#, #"{"name":"n","fields":{"a":{"fooValue":1}}}"#,
    #"{"name":"n","fields":{"a":{"arrayValue":{"values":{}}}}}"#, #"{"name":"n","fields":{"a":{"mapValue":[]}}}"#,
    #"{"name":"n","fields":{"a":{"nullValue":[}}}"#, #"{"name":"n","createTime":5}"#,
    #"{"name":"n"} x"#, #"{"name":"n",}"#, #"{"name":"n" "x":1}"#, #"{"name":"\x"}"#, #"{"name":"\ud800"}"#,
    #"{"name":"n","x":tru}"#, #"{"name":"n","x":01}"#, #"{"name":"n","x":1.}"#, #"{"name":"n","x":"a"#,
    "{\"name\":\"a\u{1}b\"}", #"{"name":"n","x":[1,]}"#,
  ]

  @Test("rejects what the tree decoder rejects", arguments: rejected)
  func sameRejections(text: String) {
    #expect(throws: WireFormatError.self) { try viaTree(text) }
    #expect(throws: WireFormatError.self) { try viaReader(text) }
  }

  @Test("rejects invalid UTF-8, in plain and escaped strings, and excessive nesting")
  func hostileBytes() {
    let plain = Array(#"{"name":"ab"#.utf8) + [0xC3, 0x28] + Array(#"cdefghijklmnop"}"#.utf8)
    let escaped = Array(#"{"name":"a\n"#.utf8) + [0xFF] + Array(#""}"#.utf8)
    let skipped = Array(#"{"name":"n","x":""#.utf8) + [0xED, 0xA0, 0x80] + Array(#""}"#.utf8)
    for bytes in [plain, escaped, skipped] {
      #expect(throws: WireFormatError.self) { try bytes.withUnsafeBufferPointer { try Document(jsonBytes: $0) } }
    }
    let deep = #"{"name":"n","x":"# + String(repeating: "[", count: 300) + String(repeating: "]", count: 300) + "}"
    #expect(throws: WireFormatError.self) { try viaReader(deep) }
    var nested = #"{"stringValue":"leaf"}"#
    for _ in 0..<200 { nested = #"{"mapValue":{"fields":{"k":"# + nested + "}}}" }
    #expect(throws: WireFormatError.self) { try viaReader(#"{"name":"n","fields":{"a":"# + nested + "}}") }
  }

  @Test("names the member and the byte where decoding stopped")
  func messages() {
    #expect(throws: WireFormatError("integerValue \"1.5\" is not a 64-bit integer")) {
      try viaReader(#"{"name":"n","fields":{"a":{"integerValue":"1.5"}}}"#)
    }
    #expect(throws: WireFormatError("createTime has the wrong JSON type: number")) { try viaReader(#"{"name":"n","createTime":5}"#) }
    #expect(throws: WireFormatError("invalid JSON at byte 12: expected ',' or '}'")) { try viaReader(#"{"name":"n" "x":1}"#) }
  }

  @Test("a runQuery reply and a batchGet reply decode as their elements do one by one")
  func replies() throws {
    let runQuery = """
      [{"readTime":"2026-11-30T07:12:32.270553Z","transaction":"dHg=","skippedResults":"3"},
       {"document":\(Self.documents[1]),"readTime":"2026-11-30T07:12:32.270553Z","explainMetrics":{"planSummary":{}}},
       {"readTime":"2026-11-30T07:12:32.270553Z","done":true}]
      """
    let fromReader = try Array(runQuery.utf8).withUnsafeBufferPointer { try RunQueryResponse.decodeArray($0) }
    let fromTree = try JSONParser.parse(runQuery).arrayValue?.map(RunQueryResponse.init(json:))
    #expect(fromReader == fromTree)
    #expect(fromReader.count == 3 && fromReader[0].skippedResults == 3 && fromReader[2].done)

    let batchGet = """
      [{"transaction":"dHg="},{"found":\(Self.documents[0]),"readTime":"2026-11-30T07:12:32Z"},
       {"missing":"projects/p/databases/(default)/documents/c/gone","readTime":"2026-11-30T07:12:32Z"}]
      """
    let gets = try Array(batchGet.utf8).withUnsafeBufferPointer { try BatchGetResponse.decodeArray($0) }
    #expect(gets == (try JSONParser.parse(batchGet).arrayValue?.map(BatchGetResponse.init(json:))))
    #expect(throws: WireFormatError.self) { try Array("[{}]".utf8).withUnsafeBufferPointer { try BatchGetResponse.decodeArray($0) } }
    #expect(throws: WireFormatError.self) { try Array("{}".utf8).withUnsafeBufferPointer { try RunQueryResponse.decodeArray($0) } }
  }

  /// Commit replies: a transaction's empty commit, one write, a write with transform
  /// results, members repeated and unknown.
  static let commitReplies = [
    "{}",
    #"{"writeResults":[{"updateTime":"2026-12-05T23:17:26.316151Z"}],"commitTime":"2026-12-05T23:17:26.316151Z"}"#,
    #"""
    {"commitTime": "2026-12-05T23:17:26Z", "writeResults": [{}, {"updateTime": "2026-12-05T23:17:26.5Z",
     "transformResults": [{"integerValue": "3"}, {"timestampValue": "2026-12-05T23:17:26Z"}, {"nullValue": null}]}],
     "writeResults": 7, "commitTime": [], "extra": {"k": [1, "x"]}}
    """#,
  ]

  @Test("a commit reply decodes as the tree decoder decodes it", arguments: commitReplies)
  func commitReply(text: String) throws {
    let fromReader = try Array(text.utf8).withUnsafeBufferPointer { try CommitResponse(jsonBytes: $0) }
    #expect(fromReader == (try CommitResponse(json: JSONParser.parse(text))))
  }

  /// Replies no Firestore server sends, whose results must not be taken for the writes'.
  static let rejectedCommitReplies = [
    "[]", #"{"writeResults":{}}"#, #"{"writeResults":[1]}"#, #"{"writeResults":[null]}"#,
    #"{"writeResults":[{"updateTime":5}]}"#, #"{"writeResults":[{"transformResults":[{}]}]}"#,
    #"{"commitTime":"yesterday"}"#, #"{"writeResults":[{"updateTime":"2026-12-05T23:17:26Z"}]"#,
    #"{"writeResults":[]} []"#,
  ]

  @Test("rejects the commit replies the tree decoder rejects", arguments: rejectedCommitReplies)
  func rejectedCommitReply(text: String) {
    #expect(throws: (any Error).self) { try Array(text.utf8).withUnsafeBufferPointer { try CommitResponse(jsonBytes: $0) } }
    #expect(throws: (any Error).self) { try CommitResponse(json: JSONParser.parse(text)) }
  }
}
