import Foundation
import Testing

@testable import FirestoreWire

@Suite("JSON outputs: one form, as a tree and as bytes")
struct JSONOutputTests {
  static let time = Timestamp(seconds: 1_700_000_000, nanoseconds: 120_000_000)
  static let name = "projects/p/databases/(default)/documents/a/b"

  static let values: [Value] = [
    .null, .boolean(false), .integer(-42), .double(2.5), .double(-0.0), .double(.nan), .double(-.infinity), .timestamp(time),
    .string("quote\" back\\ line\n é"), .bytes(Data([0, 255, 7])), .reference(name), .geoPoint(GeoPoint(latitude: -90, longitude: 180)),
    .array([]), .array([.integer(1), .map(["k": .null])]), .map([:]),
    .map(["z": .string("last"), "a": .array([.boolean(true)]), "m": .map(["nested": .double(1e300)])]),
  ]

  static let writes: [Write] = [
    Write(operation: .update(Document(name: name, fields: ["v": .map(["x": .integer(1)])]))),
    Write(operation: .update(Document(name: name, fields: [:], createTime: time)), currentDocument: .exists(false)),
    Write(
      operation: .update(Document(name: name, fields: ["a": .integer(1)])), updateMask: ["a", "`x.y`"],
      updateTransforms: [
        FieldTransform(fieldPath: "t", kind: .serverTimestamp), FieldTransform(fieldPath: "n", kind: .increment(.integer(2))),
        FieldTransform(fieldPath: "l", kind: .appendMissingElements([.string("x")])),
        FieldTransform(fieldPath: "r", kind: .removeAllFromArray([])), FieldTransform(fieldPath: "h", kind: .maximum(.double(1))),
        FieldTransform(fieldPath: "m", kind: .minimum(.integer(0))),
      ], currentDocument: .updateTime(time)),
    Write(operation: .delete(name), currentDocument: .exists(true)),
    Write(operation: .transform(name), updateTransforms: [FieldTransform(fieldPath: "t", kind: .serverTimestamp)]),
  ]

  @Test("each value's bytes are its tree's text")
  func values() throws {
    for value in Self.values {
      #expect(value.jsonBytes == JSONWriter.bytes(value.json), "\(value)")
      let reread = try Value(json: try JSONParser.parse(Data(value.jsonBytes)))
      #expect(reread == value, "\(value)")
    }
    #expect(Value.json(fields: ["b": .null, "a": .integer(1)]) == .object([("a", Value.integer(1).json), ("b", Value.null.json)]))
    #expect(Value.json(double: .infinity) == .string("Infinity"))
    #expect(Value.json(double: 1.5) == .number("1.5"))
  }

  @Test("each write's, document's, commit's and batch write's bytes are its tree's text, and read back as it")
  func writes() throws {
    for write in Self.writes {
      #expect(write.jsonBytes == JSONWriter.bytes(write.json))
      #expect(try Write(json: try JSONParser.parse(Data(write.jsonBytes))) == write)
    }
    for commit in [CommitRequest(writes: Self.writes), CommitRequest(writes: [], transaction: "dHg=")] {
      #expect(commit.jsonBytes == JSONWriter.bytes(commit.json))
      #expect(try CommitRequest(json: try JSONParser.parse(Data(commit.jsonBytes))) == commit)
    }
    let batch = BatchWriteRequest(writes: Self.writes)
    #expect(batch.jsonBytes == JSONWriter.bytes(batch.json))
    #expect(try BatchWriteRequest(json: try JSONParser.parse(Data(batch.jsonBytes))) == batch)
    let documents = [
      Document(name: Self.name), Document(name: Self.name, fields: ["a": .integer(1)], createTime: Self.time, updateTime: Self.time),
    ]
    for document in documents {
      #expect(document.jsonBytes == JSONWriter.bytes(document.json))
      #expect(try Document(json: try JSONParser.parse(Data(document.jsonBytes))) == document)
    }
  }

  @Test("a commit's body from its writes written ahead in parts is the request's own text, for any parts and storage")
  func commitFromParts() {
    let writes = Self.writes + Self.writes
    func body(_ parts: [[UInt8]], _ transaction: String?) -> [UInt8] {
      var bytes: [UInt8] = []
      CommitRequest.appendBody(encodedWrites: parts, transaction: transaction, to: &bytes)
      var data = Data()
      CommitRequest.appendBody(encodedWrites: parts, transaction: transaction, to: &data)
      #expect(Array(data) == bytes, "the same text in Data as in an array")
      return bytes
    }
    for transaction in [nil, "dHg=\"]"] {
      let whole = CommitRequest(writes: writes, transaction: transaction).jsonBytes
      for size in 1...writes.count {
        let parts = stride(from: 0, to: writes.count, by: size).map {
          CommitRequest.encodedWrites(writes[$0..<min($0 + size, writes.count)])
        }
        #expect(body(parts, transaction) == whole, "parts of \(size)")
        // A part with no writes adds nothing, not a stray comma.
        #expect(body([[]] + parts + [[]], transaction) == whole, "parts of \(size)")
      }
      #expect(body([], transaction) == CommitRequest(writes: [], transaction: transaction).jsonBytes)
    }
  }

  @Test("the text appended after other text stands alone")
  func appending() throws {
    var buffer = Array("prefix ".utf8)
    JSONWriter.write(.array([.null, .object([("k", .bool(true))])]), into: &buffer)
    #expect(String(decoding: buffer, as: UTF8.self) == #"prefix [null,{"k":true}]"#)
  }
}
