extension Document {
  /// Reads a REST `Document` object straight from JSON text, as ``init(json:)`` reads it
  /// from a parsed tree; members it does not know are checked and skipped.
  package init(reading reader: inout JSONReader) throws {
    guard reader.peek() == UInt8(ascii: "{") else {
      throw WireFormatError("Document must be a JSON object, got \(reader.nextKindName())")
    }
    var name: String?
    var fields: [String: Value]?
    var createTime: Timestamp?
    var updateTime: Timestamp?
    if try reader.beginObject() {
      repeat {
        switch try reader.readKey() {
        // A repeated member is checked and skipped: the first one counts, as in the tree
        // decoder (which looks members up by name).
        case "name" where name == nil: name = try reader.readString("name")
        case "fields" where fields == nil: fields = try Value.readFields(&reader)
        case "createTime" where createTime == nil: createTime = try reader.readTimestamp("createTime")
        case "updateTime" where updateTime == nil: updateTime = try reader.readTimestamp("updateTime")
        default: try reader.skipValue()
        }
      } while try reader.nextMember()
    }
    guard let name else { throw WireFormatError("missing \"name\"") }
    self.init(name: name, fields: fields ?? [:], createTime: createTime, updateTime: updateTime)
  }

  /// Decodes one REST `Document` from a complete JSON text (the body of a get).
  package init(jsonBytes bytes: UnsafeBufferPointer<UInt8>) throws {
    var reader = JSONReader(bytes)
    self = try Document(reading: &reader)
    try reader.finish()
  }
}

extension JSONReader {
  /// Reads an RFC 3339 string member as a timestamp.
  package mutating func readTimestamp(_ member: String) throws -> Timestamp {
    try withStringBytes(member) { try Timestamp(rfc3339Bytes: $0) }
  }
}
