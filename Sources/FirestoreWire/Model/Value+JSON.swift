import Foundation

extension Value: JSONWritable {
  /// Reads a REST JSON value such as `{"integerValue":"5"}`.
  ///
  /// Accepts what Firestore accepts: integers as strings or numbers, doubles as numbers or
  /// the strings `"NaN"`, `"Infinity"`, `"-Infinity"`, bytes as standard or URL-safe
  /// base64 with or without padding, a `mapValue`/`arrayValue` without `fields`/`values`.
  ///
  /// - Throws: ``WireFormatError`` naming the offending member.
  public init(json: JSONValue) throws {
    guard case .object(let members) = json, members.count == 1, let (key, payload) = members.first else {
      if case .object(let members) = json, members.isEmpty {
        throw WireFormatError("a Value must have exactly one kind, got none")
      }
      throw WireFormatError("a Value must be an object with exactly one member, got \(json.kindName)")
    }
    switch key {
    case "nullValue":
      self = .null
    case "booleanValue":
      guard case .bool(let b) = payload else { throw Self.mismatch(key, payload) }
      self = .boolean(b)
    case "integerValue":
      let text: String
      switch payload {
      case .string(let s): text = s
      case .number(let s): text = s
      default: throw Self.mismatch(key, payload)
      }
      guard let i = Int64(text) else { throw WireFormatError("integerValue \"\(text)\" is not a 64-bit integer") }
      self = .integer(i)
    case "doubleValue":
      self = .double(try Self.double(from: payload, member: key))
    case "timestampValue":
      guard case .string(let s) = payload else { throw Self.mismatch(key, payload) }
      self = .timestamp(try Timestamp(rfc3339: s))
    case "stringValue":
      guard case .string(let s) = payload else { throw Self.mismatch(key, payload) }
      self = .string(s)
    case "bytesValue":
      guard case .string(let s) = payload else { throw Self.mismatch(key, payload) }
      guard let data = Self.decodeBase64(s) else { throw WireFormatError("bytesValue is not base64") }
      self = .bytes(data)
    case "referenceValue":
      guard case .string(let s) = payload else { throw Self.mismatch(key, payload) }
      self = .reference(s)
    case "geoPointValue":
      guard case .object = payload else { throw Self.mismatch(key, payload) }
      let lat = try payload["latitude"].map { try Self.double(from: $0, member: "latitude") } ?? 0
      let lng = try payload["longitude"].map { try Self.double(from: $0, member: "longitude") } ?? 0
      self = .geoPoint(GeoPoint(latitude: lat, longitude: lng))
    case "arrayValue":
      guard case .object = payload else { throw Self.mismatch(key, payload) }
      guard let values = payload["values"] else {
        self = .array([])
        return
      }
      guard case .array(let elements) = values else { throw Self.mismatch("values", values) }
      self = .array(try elements.map(Value.init(json:)))
    case "mapValue":
      guard case .object = payload else { throw Self.mismatch(key, payload) }
      self = .map(try Self.fields(from: payload["fields"]))
    default:
      throw WireFormatError("unknown Value kind \"\(key)\"")
    }
  }

  /// Writes the REST JSON form, e.g. `{"integerValue":"5"}`; bytes as padded standard
  /// base64.
  public func write<Output: JSONOutput>(to output: inout Output) {
    output.writeObject { out in
      switch self {
      case .null:
        out.writeKey("nullValue")
        out.writeNull()
      case .boolean(let b):
        out.writeKey("booleanValue")
        out.write(b)
      case .integer(let i): out.write("integerValue", String(i))
      case .double(let d):
        out.writeKey("doubleValue")
        Self.write(double: d, to: &out)
      case .timestamp(let t): out.write("timestampValue", t.rfc3339)
      case .string(let s): out.write("stringValue", s)
      case .bytes(let d): out.write("bytesValue", d.base64EncodedString())
      case .reference(let r): out.write("referenceValue", r)
      case .geoPoint(let g):
        out.writeKey("geoPointValue")
        out.writeObject { point in
          point.writeKey("latitude")
          Self.write(double: g.latitude, to: &point)
          point.writeKey("longitude")
          Self.write(double: g.longitude, to: &point)
        }
      case .array(let a):
        out.writeKey("arrayValue")
        out.writeObject { array in
          guard !a.isEmpty else { return }
          array.writeKey("values")
          array.writeArray(of: a)
        }
      case .map(let m):
        out.writeKey("mapValue")
        out.writeObject { map in
          guard !m.isEmpty else { return }
          map.writeKey("fields")
          Self.write(fields: m, to: &map)
        }
      }
    }
  }

  /// Reads a REST `fields` object (missing means empty).
  public static func fields(from json: JSONValue?) throws -> [String: Value] {
    guard let json else { return [:] }
    guard case .object(let members) = json else { throw mismatch("fields", json) }
    var out = [String: Value](reservingCapacity: members.count)
    for (k, v) in members { out[k] = try Value(json: v) }
    return out
  }

  /// A REST `fields` object, keys sorted so that output is deterministic.
  public static func json(fields: [String: Value]) -> JSONValue {
    JSONTreeOutput.tree { write(fields: fields, to: &$0) }
  }

  /// Writes a REST `fields` object, keys sorted so that output is deterministic.
  public static func write<Output: JSONOutput>(fields: [String: Value], to output: inout Output) {
    output.writeObject { out in
      for (key, value) in fields.sorted(by: { $0.key < $1.key }) {
        out.writeKey(key)
        value.write(to: &out)
      }
    }
  }

  /// JSON for a double: a number, or the strings `"NaN"`, `"Infinity"`, `"-Infinity"`.
  public static func json(double d: Double) -> JSONValue {
    JSONTreeOutput.tree { write(double: d, to: &$0) }
  }

  /// Writes a double: a number, or the strings `"NaN"`, `"Infinity"`, `"-Infinity"`.
  public static func write<Output: JSONOutput>(double d: Double, to output: inout Output) {
    if d.isNaN {
      output.write("NaN")
    } else if d.isInfinite {
      output.write(d < 0 ? "-Infinity" : "Infinity")
    } else {
      // Swift's shortest round-trip form ("2.0", "1e+300", "-0.0") is valid JSON.
      output.writeNumber(d.description)
    }
  }

  static func double(from json: JSONValue, member: String) throws -> Double {
    switch json {
    case .number(let s), .string(let s): return try double(text: s, member: member)
    default: throw mismatch(member, json)
    }
  }

  /// A double from its JSON number text or the strings Firestore uses for the values JSON
  /// numbers cannot hold (`"NaN"`, `"Infinity"`, `"-Infinity"`).
  static func double(text s: String, member: String) throws -> Double {
    switch s {
    case "NaN": return .nan
    case "Infinity": return .infinity
    case "-Infinity": return -.infinity
    default:
      guard let d = Double(s) else { throw WireFormatError("\(member) \"\(s)\" is not a number") }
      return d
    }
  }

  /// Decodes standard or URL-safe base64, padded or not.
  public static func decodeBase64(_ text: String) -> Data? {
    var utf8 = Array(text.utf8)
    // URL-safe letters become standard ones in place; no Foundation string rewriting,
    // which is slow on megabyte payloads.
    for i in utf8.indices {
      if utf8[i] == UInt8(ascii: "-") {
        utf8[i] = UInt8(ascii: "+")
      } else if utf8[i] == UInt8(ascii: "_") {
        utf8[i] = UInt8(ascii: "/")
      }
    }
    let remainder = utf8.count % 4
    if remainder == 1 { return nil }
    if remainder > 0 { utf8.append(contentsOf: repeatElement(UInt8(ascii: "="), count: 4 - remainder)) }
    return Data(base64Encoded: Data(utf8))
  }

  static func mismatch(_ member: String, _ json: JSONValue) -> WireFormatError {
    WireFormatError("\(member) has the wrong JSON type: \(json.kindName)")
  }
}
