import Foundation
import Testing

@testable import FirestoreWire

@Suite("JSON reader and writer")
struct JSONTests {
  @Test("parses every JSON kind and keeps number text exact")
  func parsesKinds() throws {
    let json = try JSONParser.parse(#"{"a":[1,-2.5e3,true,false,null],"b":"x\"\\\/\n\u00e9\ud83d\ude00","c":{},"d":9223372036854775807}"#)
    #expect(json["a"] == .array([.number("1"), .number("-2.5e3"), .bool(true), .bool(false), .null]))
    #expect(json["b"] == .string("x\"\\/\né😀"))
    #expect(json["c"] == .object([]))
    #expect(json["d"] == .number("9223372036854775807"))
  }

  @Test(
    "rejects malformed input with the byte offset",
    arguments: [
      "", "{", "[1,]", "{\"a\" 1}", "tru", "01", "1.", "\"\\x\"", "\"\\ud800\"", "\"abc", "[1] 2", "{\"a\":1,}", "\"\u{1}\"", "-",
    ])
  func rejectsMalformed(text: String) {
    #expect(throws: WireFormatError.self) { try JSONParser.parse(text) }
  }

  @Test("tells JSON cut short from JSON with a wrong byte")
  func cutShort() {
    let cut = [
      "{", #"{"a""#, #"{"a":"#, #"{"a":[1,"#, "[1", "tr", "-", "1.", "1e", #""abc"#, #""a\"#, #""\u00"#, #""\ud83d"#,
      #"[{"name":"projects/p"#, "  [ ",
    ]
    for text in cut { #expect(JSONParser.isCutShort(Array(text.utf8)), "\(text)") }
    let wrong = ["", "  ", "{}", "[1]", "{'a':1}", "[1,]", "trux", "<html>", "[1] 2", #"{"a" 1"#, #""\x"#, "nul1"]
    for text in wrong { #expect(!JSONParser.isCutShort(Array(text.utf8)), "\(text)") }
  }

  @Test("rejects invalid UTF-8 and excessive nesting")
  func rejectsHostile() {
    #expect(throws: WireFormatError.self) { try JSONParser.parse([0x22, 0xFF, 0x22]) }
    let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
    #expect(throws: WireFormatError.self) { try JSONParser.parse(deep) }
  }

  @Test("writes compact JSON that reads back the same")
  func roundTrips() throws {
    let value = JSONValue.object([
      ("s", .string("quote\" backslash\\ newline\n tab\t control\u{1} é 😀")), ("n", .number("1.5")), ("a", .array([.null, .bool(true)])),
    ])
    let text = JSONWriter.string(value)
    #expect(text.contains("\\u0001"))
    #expect(try JSONParser.parse(text) == value)
  }

  @Test("reads a string with an escape, a character beyond ASCII or a control byte at any place")
  func stringScan() throws {
    func read(_ text: [UInt8]) throws -> String {
      try text.withUnsafeBufferPointer { bytes in
        var reader = JSONReader(bytes)
        return try reader.readString()
      }
    }
    // Past two blocks of sixteen bytes, and a word of eight, so that each falls at every
    // place of a block, of a word and of the tail.
    for length in 0..<41 {
      let plain = String((0..<length).map { Character(Unicode.Scalar(UInt8(ascii: "a") + UInt8($0 % 26))) })
      #expect(try read(Array("\"\(plain)\"".utf8)) == plain)
      for place in 0...length {
        let (head, tail) = (plain.prefix(place), plain.dropFirst(place))
        for (written, meant) in [(#"\""#, "\""), (#"\\"#, "\\"), (#"\n"#, "\n"), ("é", "é"), ("😀", "😀")] {
          #expect(try read(Array("\"\(head)\(written)\(tail)\"".utf8)) == head + meant + tail, "\(written) at \(place) of \(length)")
        }
        #expect(throws: WireFormatError.self) { try read(Array("\"\(head)\u{1}\(tail)\"".utf8)) }
        // A lone continuation byte is not UTF-8, wherever it stands.
        #expect(throws: WireFormatError.self) { try read(Array("\"\(head)".utf8) + [0x80] + Array("\(tail)\"".utf8)) }
      }
    }
  }

  @Test("finds a byte to escape at any place in a text, and none in clean text beyond ASCII")
  func escapeScan() {
    let plain = Array("abcdefghijklmnopqrstuvwxyz é😀~ ".utf8)
    let clean = plain.withUnsafeBufferPointer { JSONWriter.needsEscaping($0) }
    #expect(!clean)
    for special: UInt8 in [0x00, 0x01, 0x0A, 0x1F, 0x22, 0x5C] {
      for place in plain.indices {
        var bytes = plain
        bytes[place] = special
        let found = bytes.withUnsafeBufferPointer { JSONWriter.needsEscaping($0) }
        #expect(found, "byte \(special) at \(place)")
      }
    }
    // Near misses of each special byte, and every byte of UTF-8 beyond ASCII.
    let neighbours = [0x20, 0x21, 0x23, 0x5B, 0x5D, 0x7F] + Array(0x80...0xFF)
    let near = neighbours.map(UInt8.init).withUnsafeBufferPointer { JSONWriter.needsEscaping($0) }
    #expect(!near)
  }
}

@Suite("Streaming JSON array splitter")
struct JSONArrayStreamSplitterTests {
  @Test("splits an array fed one byte at a time")
  func byteByByte() throws {
    let body = #"[ {"a":"x,]}"}, [1,[2]] ,"s\"]", 42, true ,{}]"#
    var splitter = JSONArrayStreamSplitter()
    var elements: [String] = []
    for byte in body.utf8 {
      elements += try splitter.append([byte]).map { String(decoding: $0, as: UTF8.self) }
    }
    #expect(elements == [#"{"a":"x,]}"}"#, "[1,[2]]", #""s\"]""#, "42", "true", "{}"])
    #expect(splitter.isFinished)
  }

  @Test("reports an error object instead of an array")
  func errorObject() throws {
    var splitter = JSONArrayStreamSplitter()
    _ = try splitter.append(Array(#"{"error":{"code":400,"#.utf8))
    #expect(splitter.leadingObject == nil)
    _ = try splitter.append(Array(#""message":"x"}}"#.utf8))
    let object = try #require(splitter.leadingObject)
    #expect(try JSONParser.parse(object)["error"]?["code"] == .number("400"))
  }

  @Test("an empty array finishes with no elements; garbage is an error")
  func emptyAndGarbage() throws {
    var splitter = JSONArrayStreamSplitter()
    #expect(try splitter.append(Array("[]".utf8)).isEmpty)
    #expect(splitter.isFinished)
    var bad = JSONArrayStreamSplitter()
    #expect(throws: WireFormatError.self) { try bad.append(Array("<html>".utf8)) }
  }
}
