import Foundation

/// The `firestore` command line's JSON mapping of Firestore values: plain JSON where JSON
/// has the type, one-member `$` objects where it has not.
///
/// | Firestore | extended JSON |
/// |---|---|
/// | null, boolean, string | `null`, `true`, `"text"` |
/// | integer | a JSON number without `.` or exponent: `5` |
/// | double | a JSON number with `.` or exponent (`2.0`, `1e+300`); NaN and ±infinity as `{"$double":"NaN"}` |
/// | timestamp | `{"$timestamp":"2024-01-02T03:04:05.123456Z"}` |
/// | bytes | `{"$bytes":"<base64>"}` |
/// | reference | `{"$reference":"cities/c1"}` (a path from the database root) |
/// | geo point | `{"$geopoint":[latitude, longitude]}` |
/// | vector | `{"$vector":[0.5, 1.0]}` (numbers, each stored as a double) |
/// | array, map | JSON array, JSON object (keys sorted on output) |
///
/// A map whose only key is one of these tags is written `{"$map":{…}}` so that it reads
/// back as a map. For writes, ``decodeInput(_:documentsRoot:)`` also reads the transform
/// sentinels of ``ExtendedJSONSentinel``.
///
/// ```swift
/// let value = try ExtendedJSON.decode(JSONParser.parse(#"{"at":{"$timestamp":"2024-01-02T03:04:05Z"},"n":5}"#),
///                                     documentsRoot: "projects/p/databases/(default)/documents")
/// let line = JSONWriter.string(ExtendedJSON.encode(value, documentsRoot: "projects/p/databases/(default)/documents"))
/// ```
public enum ExtendedJSON {
  /// The tags of values (not sentinels).
  public static let valueTags: Set<String> = ["$double", "$timestamp", "$bytes", "$reference", "$geopoint", "$vector", "$map"]
  /// The tags of write sentinels.
  public static let sentinelTags: Set<String> = [
    "$delete", "$serverTimestamp", "$increment", "$maximum", "$minimum", "$arrayUnion", "$arrayRemove",
  ]

  // MARK: - Encoding

  /// The extended JSON of a value. References inside `documentsRoot`
  /// (`projects/{p}/databases/{d}/documents`) are written as paths from that root; others
  /// keep their full resource name.
  public static func encode(_ value: Value, documentsRoot: String) -> JSONValue {
    switch value {
    case .null: return .null
    case .boolean(let b): return .bool(b)
    case .integer(let i): return .number(String(i))
    case .double(let d):
      guard d.isFinite else { return .object([("$double", .string(d.isNaN ? "NaN" : (d < 0 ? "-Infinity" : "Infinity")))]) }
      // Swift's shortest round-trip text always has a "." or an exponent ("2.0", "1e+300").
      return .number(d.description)
    case .timestamp(let t): return .object([("$timestamp", .string(t.rfc3339))])
    case .string(let s): return .string(s)
    case .bytes(let data): return .object([("$bytes", .string(data.base64EncodedString()))])
    case .reference(let name):
      return .object([("$reference", .string(relativeReference(name, documentsRoot: documentsRoot) ?? name))])
    case .geoPoint(let g):
      return .object([
        ("$geopoint", .array([encode(.double(g.latitude), documentsRoot: ""), encode(.double(g.longitude), documentsRoot: "")]))
      ])
    case .array(let elements): return .array(elements.map { encode($0, documentsRoot: documentsRoot) })
    case .map(let fields):
      if let elements = value.vectorDoubles {
        return .object([("$vector", .array(elements.map { encode(.double($0), documentsRoot: "") }))])
      }
      let object = encode(fields: fields, documentsRoot: documentsRoot)
      if fields.count == 1, let key = fields.keys.first, valueTags.contains(key) || sentinelTags.contains(key) {
        return .object([("$map", object)])
      }
      return object
    }
  }

  /// A document's fields as one JSON object, keys sorted (so equal documents give equal text).
  public static func encode(fields: [String: Value], documentsRoot: String) -> JSONValue {
    .object(fields.sorted { $0.key < $1.key }.map { ($0.key, encode($0.value, documentsRoot: documentsRoot)) })
  }

  // MARK: - Decoding

  /// Reads a value; sentinels are refused.
  ///
  /// - Parameters:
  ///   - json: the parsed JSON of one value.
  ///   - documentsRoot: what a relative `$reference` path is resolved against.
  /// - Throws: ``WireFormatError`` naming the place (`at "a.b"`) and the problem.
  public static func decode(_ json: JSONValue, documentsRoot: String) throws -> Value {
    try decodeValue(json, at: [], root: documentsRoot, allowSentinels: false).plainValue!
  }

  /// Reads a document's fields; sentinels are refused.
  public static func decodeFields(_ json: JSONValue, documentsRoot: String) throws -> [String: Value] {
    guard case .map(let fields) = try decode(json, documentsRoot: documentsRoot), case .object = json else {
      throw WireFormatError("document data must be a JSON object, got \(json.kindName)")
    }
    return fields
  }

  /// Reads a document's data for a write: a JSON object whose members (at any depth of
  /// maps, not inside arrays) may be sentinels.
  ///
  /// - Throws: ``WireFormatError`` when the JSON is not an object, a tag is malformed, or a
  ///   sentinel sits inside an array or another sentinel.
  public static func decodeInput(_ json: JSONValue, documentsRoot: String) throws -> [String: ExtendedJSONInput] {
    guard case .object = json else { throw WireFormatError("document data must be a JSON object, got \(json.kindName)") }
    switch try decodeValue(json, at: [], root: documentsRoot, allowSentinels: true) {
    case .map(let members): return members
    case .value(.map(let fields)): return fields.mapValues { .value($0) }
    default: throw WireFormatError("document data must be a JSON object, not a tagged value like \(JSONWriter.string(json))")
    }
  }

  private static func place(_ path: [String]) -> String {
    path.isEmpty ? "" : "at \"\(path.joined(separator: "."))\": "
  }

  private static func decodeValue(_ json: JSONValue, at path: [String], root: String, allowSentinels: Bool) throws
    -> ExtendedJSONInput
  {
    switch json {
    case .null: return .value(.null)
    case .bool(let b): return .value(.boolean(b))
    case .string(let s): return .value(.string(s))
    case .number(let text): return .value(try number(text, at: path))
    case .array(let elements):
      var values: [Value] = []
      for (i, element) in elements.enumerated() {
        let input = try decodeValue(element, at: path + ["[\(i)]"], root: root, allowSentinels: false)
        values.append(input.plainValue!)
      }
      return .value(.array(values))
    case .object(let members):
      if members.count == 1, let (key, payload) = members.first, key.hasPrefix("$") {
        if valueTags.contains(key) { return try tagged(key, payload, at: path, root: root, allowSentinels: allowSentinels) }
        if sentinelTags.contains(key) {
          guard allowSentinels else {
            throw WireFormatError(
              "\(place(path))\(key) is a write transform; it is only allowed as a field value of set, create, update or add (not in arrays, queries or other transforms)"
            )
          }
          return .sentinel(try sentinel(key, payload, at: path, root: root))
        }
      }
      var out: [String: ExtendedJSONInput] = [:]
      for (key, member) in members {
        guard out[key] == nil else { throw WireFormatError("\(place(path))duplicate key \"\(key)\"") }
        out[key] = try decodeValue(member, at: path + [key], root: root, allowSentinels: allowSentinels)
      }
      if out.values.allSatisfy({ if case .value = $0 { return true } else { return false } }) {
        return .value(.map(out.mapValues { $0.plainValue! }))
      }
      return .map(out)
    }
  }

  private static func number(_ text: String, at path: [String]) throws -> Value {
    if text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) {
      guard let d = Double(text), d.isFinite else {
        throw WireFormatError("\(place(path))number \(text) is not a finite double; write {\"$double\":\"Infinity\"} for infinity")
      }
      return .double(d)
    }
    guard let i = Int64(text) else {
      // A number of thousands of digits is named by its start and length, not quoted whole.
      guard text.utf8.count <= 40 else {
        throw WireFormatError(
          "\(place(path))integer \(text.prefix(20))… (\(text.utf8.count) digits) does not fit in 64 bits; add \".0\" for a double")
      }
      throw WireFormatError("\(place(path))integer \(text) does not fit in 64 bits; write \(text).0 for a double")
    }
    return .integer(i)
  }

  private static func tagged(_ tag: String, _ payload: JSONValue, at path: [String], root: String, allowSentinels: Bool) throws
    -> ExtendedJSONInput
  {
    func bad(_ expected: String) -> WireFormatError {
      WireFormatError("\(place(path))\(tag) needs \(expected), got \(JSONWriter.string(payload))")
    }
    switch tag {
    case "$double":
      switch payload {
      case .string("NaN"): return .value(.double(.nan))
      case .string("Infinity"): return .value(.double(.infinity))
      case .string("-Infinity"): return .value(.double(-.infinity))
      case .number(let text), .string(let text):
        guard let d = Double(text) else { throw bad("a number or \"NaN\", \"Infinity\", \"-Infinity\"") }
        return .value(.double(d))
      default: throw bad("a number or \"NaN\", \"Infinity\", \"-Infinity\"")
      }
    case "$timestamp":
      guard case .string(let s) = payload, let t = try? Timestamp(rfc3339: s) else {
        throw bad("an RFC 3339 time in the years 1 to 9999, such as \"2024-01-02T03:04:05.123456Z\"")
      }
      return .value(.timestamp(t))
    case "$bytes":
      guard case .string(let s) = payload, let data = Value.decodeBase64(s) else { throw bad("a base64 string") }
      return .value(.bytes(data))
    case "$reference":
      guard case .string(let s) = payload else { throw bad("a document path such as \"cities/c1\"") }
      if s.utf8.starts(with: "projects/".utf8) {
        guard isDocumentName(s) else {
          throw bad("a full document name projects/{project}/databases/{database}/documents/{path to a document}")
        }
        return .value(.reference(s))
      }
      guard isDocumentPath(s) else {
        throw bad("a document path such as \"cities/c1\" (an even number of non-empty segments)")
      }
      return .value(.reference(root + "/" + s))
    case "$geopoint":
      guard case .array(let pair) = payload, pair.count == 2,
        case .number(let latText) = pair[0], case .number(let lngText) = pair[1],
        let lat = Double(latText), let lng = Double(lngText)
      else { throw bad("[latitude, longitude]") }
      let point = GeoPoint(latitude: lat, longitude: lng)
      guard point.isValid else { throw bad("a latitude in -90...90 and a longitude in -180...180") }
      return .value(.geoPoint(point))
    case "$vector":
      guard case .array(let elements) = payload, !elements.isEmpty else { throw bad("a non-empty array of numbers") }
      var doubles: [Double] = []
      for (i, element) in elements.enumerated() {
        switch try decodeValue(element, at: path + ["[\(i)]"], root: root, allowSentinels: false).plainValue! {
        case .double(let d): doubles.append(d)
        case .integer(let n): doubles.append(Double(n))
        default: throw bad("an array of numbers")
        }
      }
      return .value(.vector(doubles))
    default:  // "$map": an escaped map whose only key looks like a tag.
      guard case .object(let members) = payload else { throw bad("a JSON object") }
      var out: [String: ExtendedJSONInput] = [:]
      for (key, member) in members {
        out[key] = try decodeValue(member, at: path + [key], root: root, allowSentinels: allowSentinels)
      }
      if let plain = ExtendedJSONInput.map(out).plainValue { return .value(plain) }
      return .map(out)
    }
  }

  /// `name` as a path from `documentsRoot`, when it lies inside it and that path reads back
  /// as the same reference: not for a path that itself starts with `projects/` (it would
  /// read as a full name) or one that is no document path.
  private static func relativeReference(_ name: String, documentsRoot: String) -> String? {
    let prefix = documentsRoot + "/"
    // Compared on UTF-8, as the server compares names (not as Swift Characters, which
    // can glue a combining mark onto the "/").
    guard name.utf8.starts(with: prefix.utf8) else { return nil }
    let path = String(decoding: name.utf8.dropFirst(prefix.utf8.count), as: UTF8.self)
    guard !path.utf8.starts(with: "projects/".utf8), isDocumentPath(path) else { return nil }
    return path
  }

  /// Whether `path` is an even number of non-empty `/`-separated segments.
  private static func isDocumentPath(_ path: some StringProtocol) -> Bool {
    let segments = path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
    return !path.isEmpty && segments.allSatisfy { !$0.isEmpty } && segments.count % 2 == 0
  }

  /// Whether `name` is `projects/{p}/databases/{d}/documents/` and a document path.
  private static func isDocumentName(_ name: String) -> Bool {
    let segments = name.utf8.split(separator: UInt8(ascii: "/"), maxSplits: 5, omittingEmptySubsequences: false)
    guard segments.count == 6, segments[1].count > 0, segments[3].count > 0 else { return false }
    return segments[0].elementsEqual("projects".utf8) && segments[2].elementsEqual("databases".utf8)
      && segments[4].elementsEqual("documents".utf8) && isDocumentPath(Substring(segments[5]))
  }

  private static func sentinel(_ tag: String, _ payload: JSONValue, at path: [String], root: String) throws -> ExtendedJSONSentinel {
    func bad(_ expected: String) -> WireFormatError {
      WireFormatError("\(place(path))\(tag) needs \(expected), got \(JSONWriter.string(payload))")
    }
    func numeric() throws -> Value {
      let value = try decodeValue(payload, at: path, root: root, allowSentinels: false).plainValue!
      switch value {
      case .integer, .double: return value
      default: throw bad("a number")
      }
    }
    func elements() throws -> [Value] {
      guard case .array = payload,
        case .array(let values) = try decodeValue(payload, at: path, root: root, allowSentinels: false).plainValue!
      else { throw bad("a JSON array") }
      return values
    }
    switch tag {
    case "$delete":
      guard payload == .bool(true) else { throw bad("true") }
      return .delete
    case "$serverTimestamp":
      guard payload == .bool(true) else { throw bad("true") }
      return .serverTimestamp
    case "$increment": return .increment(try numeric())
    case "$maximum": return .maximum(try numeric())
    case "$minimum": return .minimum(try numeric())
    case "$arrayUnion": return .arrayUnion(try elements())
    default: return .arrayRemove(try elements())
    }
  }
}
