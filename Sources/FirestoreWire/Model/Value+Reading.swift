extension Value {
  /// Reads one REST `Value` object straight from JSON text, exactly as ``init(json:)``
  /// reads it from a parsed tree (same checks, same messages), without building the tree.
  package init(reading reader: inout JSONReader) throws {
    guard reader.peek() == UInt8(ascii: "{") else {
      throw WireFormatError("a Value must be an object with exactly one member, got \(reader.nextKindName())")
    }
    guard try reader.beginObject() else { throw WireFormatError("a Value must have exactly one kind, got none") }
    let key = try reader.readKey()
    switch key {
    case "stringValue":
      self = .string(try reader.readString(key))
    case "integerValue":
      let text = try reader.readNumberOrStringText(key)
      guard let i = Int64(text) else { throw WireFormatError("integerValue \"\(text)\" is not a 64-bit integer") }
      self = .integer(i)
    case "timestampValue":
      self = .timestamp(try reader.withStringBytes(key) { try Timestamp(rfc3339Bytes: $0) })
    case "mapValue":
      self = .map(try Self.readMapPayload(&reader))
    case "arrayValue":
      self = .array(try Self.readArrayPayload(&reader))
    case "booleanValue":
      self = .boolean(try reader.readBool(key))
    case "doubleValue":
      self = .double(try Self.readDouble(&reader, member: key))
    case "nullValue":
      // Its payload is `null` (or the enum name); like the tree decoder, any JSON will do.
      try reader.skipValue()
      self = .null
    case "referenceValue":
      self = .reference(try reader.readString(key))
    case "bytesValue":
      guard let data = Self.decodeBase64(try reader.readString(key)) else { throw WireFormatError("bytesValue is not base64") }
      self = .bytes(data)
    case "geoPointValue":
      self = .geoPoint(try Self.readGeoPoint(&reader))
    default:
      throw WireFormatError("unknown Value kind \"\(key)\"")
    }
    guard try !reader.nextMember() else { throw WireFormatError("a Value must be an object with exactly one member, got object") }
  }

  /// Reads a `fields` object (field name → Value); a repeated name keeps its last value.
  package static func readFields(_ reader: inout JSONReader) throws -> [String: Value] {
    guard try reader.beginObject("fields") else { return [:] }
    var fields: [String: Value] = [:]
    repeat {
      let name = try reader.readKey()
      fields[name] = try Value(reading: &reader)
    } while try reader.nextMember()
    return fields
  }

  // In the payloads below a repeated member is checked and skipped: the first one counts,
  // as in the tree decoder. (Within `fields` the last of a repeated name counts, as there.)

  private static func readMapPayload(_ reader: inout JSONReader) throws -> [String: Value] {
    var fields: [String: Value]?
    guard try reader.beginObject("mapValue") else { return [:] }
    repeat {
      if try reader.readKey() == "fields", fields == nil {
        fields = try readFields(&reader)
      } else {
        try reader.skipValue()
      }
    } while try reader.nextMember()
    return fields ?? [:]
  }

  private static func readArrayPayload(_ reader: inout JSONReader) throws -> [Value] {
    var values: [Value]?
    guard try reader.beginObject("arrayValue") else { return [] }
    repeat {
      guard try reader.readKey() == "values", values == nil else {
        try reader.skipValue()
        continue
      }
      values = try reader.readArray("values") { try Value(reading: &$0) }
    } while try reader.nextMember()
    return values ?? []
  }

  private static func readGeoPoint(_ reader: inout JSONReader) throws -> GeoPoint {
    var latitude: Double?
    var longitude: Double?
    if try reader.beginObject("geoPointValue") {
      repeat {
        switch try reader.readKey() {
        case "latitude" where latitude == nil: latitude = try readDouble(&reader, member: "latitude")
        case "longitude" where longitude == nil: longitude = try readDouble(&reader, member: "longitude")
        default: try reader.skipValue()
        }
      } while try reader.nextMember()
    }
    return GeoPoint(latitude: latitude ?? 0, longitude: longitude ?? 0)
  }

  private static func readDouble(_ reader: inout JSONReader, member: String) throws -> Double {
    try double(text: reader.readNumberOrStringText(member), member: member)
  }
}
