import Testing

@testable import FirestoreWire

/// Raw bytes captured from `cloud-firestore-emulator` 1.19.9 with curl (2026-11-30): a
/// `cities/c1` document whose name is `Zürich é😀 it's` and tag `日本`, so the UTF-16
/// frame length differs from both the byte count and the code-point count.
private enum Fixture {
  /// Handshake reply body (emulator 1.19.9, project wc-probe).
  static let handshake: [UInt8] = Array(
    [
      #"52"#,
      "\n",
      #"[[0,["c","eCEqRA6_pcJ8a23OKqoOng==","",8,12,30000]]]"#,
    ].joined().utf8)

  /// First back-channel GET: frame length 603 = 602 code points = 611 UTF-8 bytes.
  static let backChannel: [UInt8] = Array(
    [
      #"603"#,
      "\n",
      #"[[1,[{"targetChange":{"targetChangeType":"ADD","targetIds":[2]}}]],[2,[{"documentChange":{"document""#,
      #":{"name":"projects/wc-probe/databases/(default)/documents/cities/c1","fields":{"name":{"stringValue""#,
      #":"Zürich é😀 it\u0027s"},"tag":{"stringValue":"日本"}},"createTime":"2026-11-30T05:16:34.493071Z","upda"#,
      #"teTime":"2026-11-30T05:16:34.493071Z"},"targetIds":[2]}}]],[3,[{"targetChange":{"targetChangeType":""#,
      #"CURRENT","targetIds":[2],"resumeToken":"CgkIyPzPm/iumAM=","readTime":"2026-11-30T05:16:34.683464Z"}}"#,
      #"]],[4,[{"targetChange":{"resumeToken":"CgkIttvQm/iumAM=","readTime":"2026-11-30T05:16:34.695606Z"}}]"#,
      #"]]14"#,
      "\n",
      #"[[5,["noop"]]]"#,
    ].joined().utf8)

  /// Back channel after a count=2 forward POST: frame length 1209 = 1207 code points = 1225 bytes.
  static let backChannelTwoTargets: [UInt8] = Array(
    [
      #"1209"#,
      "\n",
      #"[[6,[{"targetChange":{"targetChangeType":"ADD","targetIds":[4]}}]],[7,[{"documentChange":{"document""#,
      #":{"name":"projects/wc-probe/databases/(default)/documents/cities/c1","fields":{"name":{"stringValue""#,
      #":"Zürich é😀 it\u0027s"},"tag":{"stringValue":"日本"}},"createTime":"2026-11-30T05:16:34.493071Z","upda"#,
      #"teTime":"2026-11-30T05:16:34.493071Z"},"targetIds":[4]}}]],[8,[{"targetChange":{"targetChangeType":""#,
      #"CURRENT","targetIds":[4],"resumeToken":"CgkIlfWdoviumAM=","readTime":"2026-11-30T05:16:48.543381Z"}}"#,
      #"]],[9,[{"targetChange":{"resumeToken":"CgkIi/adoviumAM=","readTime":"2026-11-30T05:16:48.543499Z"}}]"#,
      #"],[10,[{"targetChange":{"targetChangeType":"ADD","targetIds":[6]}}]],[11,[{"documentChange":{"docume"#,
      #"nt":{"name":"projects/wc-probe/databases/(default)/documents/cities/c1","fields":{"name":{"stringVal"#,
      #"ue":"Zürich é😀 it\u0027s"},"tag":{"stringValue":"日本"}},"createTime":"2026-11-30T05:16:34.493071Z","u"#,
      #"pdateTime":"2026-11-30T05:16:34.493071Z"},"targetIds":[6]}}]],[12,[{"targetChange":{"targetChangeTyp"#,
      #"e":"CURRENT","targetIds":[6],"resumeToken":"CgkItvidoviumAM=","readTime":"2026-11-30T05:16:48.543798"#,
      #"Z"}}]],[13,[{"targetChange":{"resumeToken":"CgkIkfudoviumAM=","readTime":"2026-11-30T05:16:48.544145"#,
      #"Z"}}]]]15"#,
      "\n",
      #"[[14,["noop"]]]"#,
    ].joined().utf8)

  /// Forward-POST reply body (the POST carried AID=5).
  static let forwardReply: [UInt8] = Array(
    [
      #"7"#,
      "\n",
      #"[1,5,7]"#,
    ].joined().utf8)
}

/// Frames `text` the way the server does, with a hand-computed length.
private func framed(_ length: Int, _ text: String) -> [UInt8] { Array("\(length)\n\(text)".utf8) }

@Suite("WebChannel codec")
struct WebChannelTests {
  // MARK: Frame parser

  @Test("parses the captured back channel in one chunk, counting UTF-16 units")
  func capturedBackChannel() throws {
    var parser = WebChannelFrameParser()
    let frames = try parser.append(Fixture.backChannel)
    #expect(frames.count == 2)
    #expect(parser.isAtFrameBoundary)
    try parser.finish()
    let entries = try WebChannelMessage.parse(frame: frames[0])
    #expect(entries.map(\.id) == [1, 2, 3, 4])
    guard case .data(let change) = entries[1].message else {
      Issue.record("expected data")
      return
    }
    let name = change["documentChange"]?["document"]?["fields"]?["name"]?["stringValue"]
    #expect(name == .string("Zürich é😀 it's"))
    guard case .data(let current) = entries[2].message else {
      Issue.record("expected data")
      return
    }
    #expect(current["targetChange"]?["resumeToken"] == .string("CgkIyPzPm/iumAM="))
    #expect(try WebChannelMessage.parse(frame: frames[1]) == [.init(id: 5, message: .noop)])
  }

  @Test("splitting a captured transcript at every byte offset gives the same frames")
  func everySplit() throws {
    for fixture in [Fixture.backChannel, Fixture.backChannelTwoTargets] {
      var whole = WebChannelFrameParser()
      let expected = try whole.append(fixture)
      #expect(expected.count == 2)
      for cut in 0...fixture.count {
        var parser = WebChannelFrameParser()
        let frames = try parser.append(fixture[..<cut]) + parser.append(fixture[cut...])
        #expect(frames == expected, "cut at \(cut)")
        try parser.finish()
      }
    }
  }

  @Test("byte-at-a-time input yields each frame as soon as it is complete")
  func byteAtATime() throws {
    var parser = WebChannelFrameParser()
    var completedAt: [Int] = []
    let input = Fixture.backChannelTwoTargets
    for (index, byte) in input.enumerated() where try !parser.append(CollectionOfOne(byte)).isEmpty {
      completedAt.append(index)
    }
    // The first frame ends just before the "15\n" of the second; the second at the end.
    #expect(completedAt == [input.count - 19, input.count - 1])
  }

  @Test("several frames in one chunk, including a handshake and a forward reply")
  func severalFrames() throws {
    var parser = WebChannelFrameParser()
    let frames = try parser.append(Fixture.handshake + Fixture.forwardReply + Fixture.backChannel)
    #expect(frames.count == 4)
    let created = try WebChannelMessage.parse(frame: frames[0])
    #expect(
      created == [
        .init(
          id: 0,
          message: .created(
            sessionID: "eCEqRA6_pcJ8a23OKqoOng==", hostPrefix: "", version: 8, serverVersion: 12, keepAliveMilliseconds: 30000))
      ])
    #expect(try WebChannelForwardReply(json: frames[1]) == WebChannelForwardReply(backChannelPresent: true, lastArrayID: 5))
  }

  @Test("a UTF-8 sequence split across chunks is counted once, and a pair counts two units")
  func splitScalar() throws {
    // "😀" is F0 9F 98 80: 4 bytes, 2 UTF-16 units; the frame text ["😀"] is 8 bytes, 6 units.
    let bytes = framed(6, #"["😀"]"#) + framed(3, #"[1]"#)
    #expect(bytes.count == 2 + 8 + 2 + 3)
    var parser = WebChannelFrameParser()
    var frames: [JSONValue] = []
    for byte in bytes { frames += try parser.append([byte]) }
    #expect(frames == [.array([.string("😀")]), .array([.number("1")])])
  }

  @Test("a byte-counted length is rejected rather than misread")
  func byteCountedLength() {
    // 8 bytes but 5 units: reading 8 units swallows the next frame's header and fails.
    var parser = WebChannelFrameParser()
    #expect(throws: WireFormatError.self) { try parser.append(framed(8, #"["😀"]"#) + framed(3, "[1]")) }
  }

  @Test(
    "garbage length lines throw and poison the parser",
    arguments: ["x\n[]", "\n[]", "-1\n[]", " 2\n[]", "2\r\n[]", "0\n", "1a\n[]", "99999999999999999999\n"])
  func garbageLength(text: String) throws {
    var parser = WebChannelFrameParser()
    #expect(throws: WireFormatError.self) { try parser.append(Array(text.utf8)) }
    #expect(!parser.isAtFrameBoundary)
    #expect(throws: WireFormatError.self) { try parser.append(framed(2, "[]")) }
    #expect(throws: WireFormatError.self) { try parser.finish() }
  }

  @Test("lengths above the limit are rejected before any payload is buffered")
  func frameLimit() throws {
    var parser = WebChannelFrameParser()
    #expect(throws: WireFormatError.self) { try parser.append(Array("67108865".utf8)) }
    var small = WebChannelFrameParser(maximumFrameLength: 10)
    #expect(try small.append(framed(10, "[1,2,3,45]")) == [.array(["1", "2", "3", "45"].map(JSONValue.number))])
    #expect(throws: WireFormatError.self) { try small.append(Array("11\n".utf8)) }
    var atLimit = WebChannelFrameParser()
    #expect(try atLimit.append(Array("67108864".utf8)).isEmpty)
  }

  @Test("malformed payloads throw", arguments: [framed(3, "[1,"), framed(2, "[1"), framed(1, #"["😀"]"#), [0x32, 0x0A, 0x5B, 0xFF]])
  func malformedPayload(bytes: [UInt8]) {
    var parser = WebChannelFrameParser()
    #expect(throws: WireFormatError.self) { try parser.append(bytes + framed(2, "[]")) }
  }

  @Test("truncated input is reported by finish")
  func truncated() throws {
    for cut in [1, 3, 4, 100, Fixture.backChannel.count - 1] {
      var parser = WebChannelFrameParser()
      _ = try parser.append(Fixture.backChannel.prefix(cut))
      #expect(!parser.isAtFrameBoundary)
      #expect(throws: WireFormatError.self) { try parser.finish() }
    }
    let empty = WebChannelFrameParser()
    try empty.finish()
  }

  // MARK: Writer and messages

  @Test("writer output parses back, with UTF-16 lengths")
  func writerRoundTrip() throws {
    let entries: [WebChannelMessage.Entry] = [
      .init(id: 0, message: .created(sessionID: "a+b/c=", hostPrefix: "", version: 8, serverVersion: 12, keepAliveMilliseconds: 30000)),
      .init(id: 1, message: .noop),
      .init(id: 2, message: .data(.object([("targetChange", .object([("resumeToken", .string("Cg+/=="))]))]))),
      .init(id: 3, message: .data(.string("é😀日本 \u{1}\"\\"))),
      .init(id: 4, message: .stop),
      .init(id: 5, message: .close),
      .init(id: 6, message: .created(sessionID: "s", hostPrefix: "", version: 8, serverVersion: 12, keepAliveMilliseconds: nil)),
      .init(id: 7, message: .created(sessionID: "s", hostPrefix: "h", version: nil, serverVersion: 12, keepAliveMilliseconds: nil)),
    ]
    let text = WebChannelFrameWriter.frame(.array([.string("é😀")]))
    #expect(text == framed(7, #"["é😀"]"#))
    var bytes: [UInt8] = []
    for entry in entries { bytes += WebChannelFrameWriter.frame([entry]) }
    bytes += WebChannelFrameWriter.frame(entries)
    var parser = WebChannelFrameParser()
    let frames = try parser.append(bytes)
    #expect(try frames.flatMap(WebChannelMessage.parse(frame:)) == entries + entries)
    #expect(entries[7].message.payload == .array([.string("c"), .string("s"), .string("h"), .null, .integer(12)]))
  }

  @Test("the writer reproduces the captured bytes exactly")
  func writerMatchesEmulator() throws {
    var parser = WebChannelFrameParser()
    let frames = try parser.append(Fixture.handshake + Fixture.forwardReply)
    #expect(WebChannelFrameWriter.frame(frames[0]) == Fixture.handshake)
    #expect(WebChannelFrameWriter.frame(try WebChannelForwardReply(json: frames[1]).json) == Fixture.forwardReply)
    // The emulator escapes ' as \u0027, so its document frames differ from ours by length only.
    let backFrames = try WebChannelFrameParser().appending(Fixture.backChannel)
    let rewritten = backFrames.flatMap(WebChannelFrameWriter.frame)
    #expect(try WebChannelFrameParser().appending(rewritten) == backFrames)
  }

  @Test("message parsing follows the web client and rejects malformed shapes")
  func messageShapes() throws {
    #expect(
      try WebChannelMessage.parse(payload: .array([.string("c"), .string("S"), .string(""), .integer(8), .integer(12)]))
        == .created(sessionID: "S", hostPrefix: "", version: 8, serverVersion: 12, keepAliveMilliseconds: nil))
    #expect(
      try WebChannelMessage.parse(payload: .array([.string("c"), .string("S")]))
        == .created(sessionID: "S", hostPrefix: "", version: nil, serverVersion: nil, keepAliveMilliseconds: nil))
    // Production may wrap an error in one more array; data is the first element, raw.
    let wrapped = JSONValue.array([.object([("error", .object([("status", .string("UNKNOWN"))]))])])
    #expect(try WebChannelMessage.parse(payload: .array([wrapped])) == .data(wrapped))
    let bad: [String] = [
      "{}", "[1]", "[[1]]", "[[1,2,3]]", "[[-1,[\"noop\"]]]", "[[1.5,[\"noop\"]]]", "[[\"1\",[\"noop\"]]]", "[[1,[]]]",
      "[[1,{}]]", "[[0,[\"c\"]]]", "[[0,[\"c\",1]]]", "[[0,[\"c\",\"S\",\"\",\"8\"]]]",
    ]
    for text in bad {
      #expect(throws: WireFormatError.self, "\(text)") { try WebChannelMessage.parse(frame: try JSONParser.parse(text)) }
    }
    #expect(try WebChannelMessage.parse(frame: .array([])).isEmpty)
    for text in ["[1,2]", "[2,1,7]", "[1,\"1\",7]", "{}"] {
      #expect(throws: WireFormatError.self, "\(text)") { try WebChannelForwardReply(json: try JSONParser.parse(text)) }
    }
    #expect(try WebChannelForwardReply(json: JSONParser.parse("[0,23,7]")).backChannelPresent == false)
  }

  // MARK: Forward body

  @Test("forward body encodes strictly and decodes back, keeping + / = in resume tokens")
  func forwardBodyRoundTrip() throws {
    let add = try JSONParser.parse(
      #"{"database":"projects/p/databases/(default)","addTarget":{"targetId":2,"resumeToken":"CgkI+NySxviumAM=","#
        + #""query":{"parent":"projects/p/databases/(default)/documents","structuredQuery":{"where":{"fieldFilter":"#
        + #"{"field":{"fieldPath":"name"},"op":"EQUAL","value":{"stringValue":"Zürich é😀 it's & a=b+c%"}}}}}}}"#)
    let remove = try JSONParser.parse(#"{"database":"projects/p/databases/(default)","removeTarget":2}"#)
    let body = WebChannelForwardBody.encode(messages: [add, remove], offset: 3)
    #expect(body.hasPrefix("count=2&ofs=3&req0___data__=%7B%22database%22%3A%22projects%2Fp%2Fdatabases%2F(default)%22"))
    #expect(body.contains("CgkI%2BNySxviumAM%3D"))
    #expect(body.contains("Z%C3%BCrich%20%C3%A9%F0%9F%98%80%20it's%20%26%20a%3Db%2Bc%25"))
    #expect(body.contains("&req1___data__=%7B%22database%22"))
    #expect(!body.contains("+") && !body.contains(" "))
    let decoded = try WebChannelForwardBody.decode(body)
    #expect(decoded.offset == 3)
    #expect(decoded.messages == [add, remove])
    // Spaces as '+' (what curl --data-urlencode and Python's quote_plus send) decode too.
    let plus = try WebChannelForwardBody.decode("count=1&ofs=0&req0___data__=%5B%22a+b%2Bc%22%5D")
    #expect(plus.messages == [.array([.string("a b+c")])])
  }

  @Test("forward body with no messages and with a headers prefix")
  func forwardBodyHeaders() throws {
    #expect(WebChannelForwardBody.encode(messages: [], offset: 9) == "count=0")
    let none = try WebChannelForwardBody.decode("count=0")
    #expect(none.offset == 0 && none.messages.isEmpty)
    #expect(try WebChannelForwardBody.decode("").messages.isEmpty)
    let body = WebChannelForwardBody.encode(
      messages: [.object([("removeTarget", .integer(4))])], offset: 0, headers: [("Authorization", "Bearer owner")])
    // The exact prefix verified against the emulator.
    #expect(body == "headers=Authorization%3ABearer%20owner%0D%0A&count=1&ofs=0&req0___data__=%7B%22removeTarget%22%3A4%7D")
    let headers = try WebChannelForwardBody.headers(in: body)
    #expect(headers.map(\.name) == ["Authorization"] && headers.map(\.value) == ["Bearer owner"])
    #expect(try WebChannelForwardBody.decode(body).messages == [.object([("removeTarget", .integer(4))])])
    #expect(try WebChannelForwardBody.headers(in: "count=0").isEmpty)
    #expect(throws: WireFormatError.self) { try WebChannelForwardBody.headers(in: "headers=nocolon%0D%0A") }
  }

  @Test(
    "malformed forward bodies throw",
    arguments: [
      "ofs=0", "count=x", "count=-1", "count=1001", "count=1", "count=1&ofs=0", "count=1&ofs=-1&req0___data__=1",
      "count=1&ofs=0&req1___data__=1", "count=1&ofs=0&req0___data__=1&req0___data__=2", "count=1&ofs=0&req0_key=1",
      "count=1&ofs=0&req0___data__=%7B", "count=1&ofs=0&req0___data__=%zz", "count=1&ofs=0&req0___data__=%2",
      "count=1&ofs=0&req0___data__=%FF", "count=1&count=1&ofs=0&req0___data__=1",
    ])
  func malformedForwardBody(body: String) {
    #expect(throws: WireFormatError.self) { try WebChannelForwardBody.decode(body) }
  }

  // MARK: URL parameters

  @Test("URL parameters match the documented requests")
  func urlParameters() {
    let db = "projects/demo/databases/(default)"
    let handshake = WebChannelURL.query(WebChannelURL.handshake(database: db, requestID: 2000, zx: "a2"))
    #expect(handshake == "database=projects%2Fdemo%2Fdatabases%2F(default)&VER=8&RID=2000&CVER=22&X-HTTP-Session-Id=gsessionid&zx=a2&t=1")
    let auth = WebChannelURL.handshake(
      database: db, requestID: 1, zx: "z", requestHTTPSessionID: false, httpHeaders: [("Authorization", "Bearer owner")])
    #expect(WebChannelURL.query(auth).contains("&%24httpHeaders=Authorization%3ABearer%20owner%0D%0A&"))
    let back = WebChannelURL.backChannel(database: db, sessionID: "M1qiygm96ts4+zpvSFYXAA==", lastArrayID: 23, zx: "b1", attempt: 2)
    #expect(
      WebChannelURL.query(back)
        == "database=projects%2Fdemo%2Fdatabases%2F(default)&VER=8&RID=rpc&SID=M1qiygm96ts4%2BzpvSFYXAA%3D%3D&AID=23&CI=0&TYPE=xmlhttp"
        + "&zx=b1&t=2")
    let forward = WebChannelURL.forward(database: db, sessionID: "S", requestID: 2001, lastArrayID: 23, zx: "f1", httpSessionID: "g")
    #expect(forward.map(\.0) == ["database", "VER", "gsessionid", "SID", "RID", "AID", "zx", "t"])
    #expect(forward.map(\.1) == [db, "8", "g", "S", "2001", "23", "f1", "1"])
    let terminate = WebChannelURL.terminate(database: db, sessionID: "S", requestID: 2002, zx: "t")
    #expect(WebChannelURL.query(terminate).hasSuffix("&SID=S&RID=2002&TYPE=terminate&zx=t&t=1"))
    var generator = SystemRandomNumberGenerator()
    let zx = WebChannelURL.randomZX(using: &generator)
    #expect(zx.count == 12 && zx.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber) })
  }
}

extension WebChannelFrameParser {
  /// Parses `bytes` with a fresh parser state and checks they end on a frame boundary.
  fileprivate func appending(_ bytes: [UInt8]) throws -> [JSONValue] {
    var copy = self
    let frames = try copy.append(bytes)
    try copy.finish()
    return frames
  }
}
