/// Firestore's storage-size rules, used to reject over-large documents before sending.
///
/// Per Firestore's documentation: a document is the size of its name plus its fields
/// plus 32 bytes; a string is its UTF-8 length + 1; a field name likewise; numbers,
/// timestamps 8; booleans and null 1; geo points 16; bytes their length; a reference its
/// path's size; arrays and maps the sum of their parts.
public enum DocumentSize {
  /// The stored size of a document at `path` (relative to the database's documents) with `fields`.
  public static func of(name path: String, fields: [String: Value]) -> Int {
    // A name counts each segment's UTF-8 length + 1, plus 16.
    let nameSize = path.slashSegments.filter { !$0.isEmpty }.reduce(16) { $0 + $1.utf8.count + 1 }
    return nameSize + mapSize(fields) + 32
  }

  /// The size of a map's fields: each name's UTF-8 length + 1 plus its value's size.
  public static func mapSize(_ fields: [String: Value]) -> Int {
    fields.reduce(0) { $0 + $1.key.utf8.count + 1 + size($1.value) }
  }

  /// The size of one value.
  public static func size(_ value: Value) -> Int {
    switch value {
    case .null, .boolean: return 1
    case .integer, .double, .timestamp: return 8
    case .string(let s): return s.utf8.count + 1
    case .bytes(let d): return d.count
    case .reference(let r): return r.utf8.count + 1
    case .geoPoint: return 16
    case .array(let a): return a.reduce(0) { $0 + size($1) }
    case .map(let m): return mapSize(m)
    }
  }
}
