import Foundation
import Testing

@testable import FirestoreWire

@Suite("Extended JSON (the firestore command line's value mapping)")
struct ExtendedJSONTests {
  let root = "projects/p/databases/(default)/documents"

  private func text(_ value: Value) -> String { JSONWriter.string(ExtendedJSON.encode(value, documentsRoot: root)) }
  private func decode(_ text: String) throws -> Value { try ExtendedJSON.decode(JSONParser.parse(text), documentsRoot: root) }

  @Test("every kind is written in its documented spelling")
  func spellings() {
    #expect(text(.null) == "null")
    #expect(text(.boolean(false)) == "false")
    #expect(text(.integer(5)) == "5")
    #expect(text(.integer(.min)) == "-9223372036854775808")
    #expect(text(.double(2)) == "2.0")
    #expect(text(.double(-0.0)) == "-0.0")
    #expect(text(.double(1e300)) == "1e+300")
    #expect(text(.double(.nan)) == #"{"$double":"NaN"}"#)
    #expect(text(.double(-.infinity)) == #"{"$double":"-Infinity"}"#)
    #expect(
      text(.timestamp(Timestamp(seconds: 1_704_164_645, nanoseconds: 123_456_000))) == #"{"$timestamp":"2024-01-02T03:04:05.123456Z"}"#)
    #expect(text(.bytes(Data([0, 1, 2, 255]))) == #"{"$bytes":"AAEC/w=="}"#)
    #expect(text(.reference(root + "/cities/c1")) == #"{"$reference":"cities/c1"}"#)
    #expect(
      text(.reference("projects/q/databases/(default)/documents/x/y")) == #"{"$reference":"projects/q/databases/(default)/documents/x/y"}"#)
    #expect(text(.geoPoint(GeoPoint(latitude: 1.5, longitude: -2))) == #"{"$geopoint":[1.5,-2.0]}"#)
    #expect(text(.map(["b": .integer(1), "a": .array([.string("x"), .null])])) == #"{"a":["x",null],"b":1}"#)
    #expect(text(.map(["$timestamp": .string("not a time")])) == #"{"$map":{"$timestamp":"not a time"}}"#)
  }

  @Test("every kind round-trips, doubles stay doubles and integers integers")
  func roundTrip() throws {
    let values: [Value] = [
      .null, .boolean(true), .integer(.max), .integer(.min), .integer(0), .double(1.5), .double(3), .double(.nan), .double(.infinity),
      .double(-0.0), .double(1e-7), .double(-1e300), .timestamp(Timestamp(seconds: -62_135_596_800, nanoseconds: 1)),
      .string("é😀\u{0}\"\\"), .string("$timestamp"), .bytes(Data()), .bytes(Data([0, 255, 1])), .reference(root + "/a/b/c/d"),
      .geoPoint(GeoPoint(latitude: -90, longitude: 180)), .array([]), .array([.integer(1), .map([:]), .double(1)]), .map([:]),
      .map(["a.b": .string("x"), "$bytes": .map(["$delete": .boolean(true)])]), .map(["$increment": .integer(1)]),
      .map(["$price": .integer(3)]),
    ]
    for value in values {
      let written = text(value)
      #expect(try decode(written) == value, "\(written)")
    }
  }

  // Found by fuzzing (Fuzz/corpus/extended_json/crash-reference-empty-segment.json): a full
  // name with an empty segment was accepted, then printed as a relative path that does not
  // read back; and a reference into a collection named "projects" printed as a relative
  // path that reads back as another database's full name.
  @Test("every reference the CLI prints reads back as the same reference")
  func referencesReadBack() throws {
    let malformed = #"{"$reference":"projects/p/databases/(default)/documents//a/b/c/d"}"#
    #expect(throws: WireFormatError.self) { try decode(malformed) }
    #expect(throws: WireFormatError.self) { try decode(#"{"$reference":"projects/p/databases/(default)/documents/a"}"#) }
    #expect(throws: WireFormatError.self) { try decode(#"{"$reference":"projects/p/databases"}"#) }
    for name in [
      root + "/projects/x", root + "/projects/x/projects/y", root + "/a/\u{301}b", root + "/\u{301}a/b",
      "projects/q/databases/(default)/documents/a/b",
    ] {
      let written = text(.reference(name))
      #expect(try decode(written) == .reference(name), "\(written)")
    }
    #expect(text(.reference(root + "/projects/x")) == #"{"$reference":"projects/p/databases/(default)/documents/projects/x"}"#)
  }

  @Test("numbers: no dot or exponent is an integer, otherwise a double")
  func numbers() throws {
    #expect(try decode("5") == .integer(5))
    #expect(try decode("-0") == .integer(0))
    #expect(try decode("5.0") == .double(5))
    #expect(try decode("5e0") == .double(5))
    #expect(try decode("1E2") == .double(100))
    #expect(try decode(#"{"$double":"Infinity"}"#) == .double(.infinity))
    #expect(try decode(#"{"$double":7}"#) == .double(7))
  }

  @Test("bad input names the field and the problem")
  func errors() throws {
    func message(_ text: String, sentinels: Bool = false) -> String {
      do {
        if sentinels {
          _ = try ExtendedJSON.decodeInput(JSONParser.parse(text), documentsRoot: root)
        } else {
          _ = try decode(text)
        }
        return "no error"
      } catch {
        return "\(error)"
      }
    }
    #expect(message("9223372036854775808").contains("does not fit in 64 bits"))
    #expect(message("1e400").contains("not a finite double"))
    #expect(message(#"{"a":{"b":{"$timestamp":"yesterday"}}}"#).contains(#"at "a.b": $timestamp needs an RFC 3339 time"#))
    #expect(message(#"{"$bytes":"!!"}"#).contains("$bytes needs a base64 string"))
    #expect(message(#"{"$reference":"cities"}"#).contains("even number"))
    #expect(message(#"{"$geopoint":[91,0]}"#).contains("latitude in -90...90"))
    #expect(message(#"{"$geopoint":"0,0"}"#).contains("[latitude, longitude]"))
    #expect(message(#"{"$double":"lots"}"#).contains("$double needs"))
    #expect(message(#"{"n":{"$increment":1}}"#).contains("write transform"))
    #expect(message(#"{"a":[{"$delete":true}]}"#, sentinels: true).contains(#"at "a.[0]": $delete is a write transform"#))
    #expect(message(#"{"n":{"$increment":"1"}}"#, sentinels: true).contains("$increment needs a number"))
    #expect(message(#"{"n":{"$arrayUnion":{"$arrayRemove":[1]}}}"#, sentinels: true).contains("$arrayUnion needs a JSON array"))
    #expect(message(#"{"n":{"$delete":false}}"#, sentinels: true).contains("$delete needs true"))
    #expect(message("[1]", sentinels: true).contains("must be a JSON object"))
    #expect(message(#"{"$timestamp":"2024-01-02T03:04:05Z"}"#, sentinels: true).contains("not a tagged value"))
  }

  @Test("write data keeps sentinels with their full paths, and plain maps as values")
  func sentinels() throws {
    let input = try ExtendedJSON.decodeInput(
      JSONParser.parse(
        #"{"gone":{"$delete":true},"at":{"$serverTimestamp":true},"stats":{"n":{"$increment":2},"d":{"$maximum":1.5},"m":{"$minimum":-1}},"tags":{"$arrayUnion":["a",1]},"old":{"$arrayRemove":[{"$timestamp":"2024-01-01T00:00:00Z"}]},"plain":{"x":1}}"#
      ), documentsRoot: root)
    #expect(input["gone"] == .sentinel(.delete))
    #expect(input["at"] == .sentinel(.serverTimestamp))
    #expect(
      input["stats"]
        == .map(["n": .sentinel(.increment(.integer(2))), "d": .sentinel(.maximum(.double(1.5))), "m": .sentinel(.minimum(.integer(-1)))]))
    #expect(input["tags"] == .sentinel(.arrayUnion([.string("a"), .integer(1)])))
    #expect(input["old"] == .sentinel(.arrayRemove([.timestamp(Timestamp(seconds: 1_704_067_200, nanoseconds: 0))])))
    #expect(input["plain"] == .value(.map(["x": .integer(1)])))
    #expect(input["stats"]?.plainValue == nil)
    #expect(ExtendedJSONSentinel.arrayRemove([]).tag == "$arrayRemove")
  }
}
