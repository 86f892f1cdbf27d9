/// Firestore's storage-size rules, used to reject over-large documents before sending.
///
/// Per Firestore's documentation: a document is the size of its name plus its fields
/// plus 32 bytes; a string is its UTF-8 length + 1; a field name likewise; numbers,
/// timestamps 8; booleans and null 1; geo points 16; bytes their length; a reference the
/// size of the name it points to; arrays and maps the sum of their parts.
public enum DocumentSize {
  /// The stored size of a document at `path` (relative to the database's documents) with `fields`.
  public static func of(name path: String, fields: [String: Value]) -> Int {
    nameSize(path) + mapSize(fields) + 32
  }

  /// ``of(name:fields:)`` for a document given by its full resource name
  /// (`projects/p/databases/d/documents/…`), which a reference already holds.
  public static func of(documentName: String, fields: [String: Value]) -> Int {
    referenceSize(documentName) + mapSize(fields) + 32
  }

  /// The stored size of a document name: each non-empty `/`-separated segment's UTF-8
  /// length + 1, plus 16. Counted over the bytes, as the cache does for every document it
  /// learns: splitting the path into strings would allocate for nothing.
  public static func nameSize(_ path: String) -> Int {
    var path = path
    return path.withUTF8(nameSize)
  }

  private static func nameSize(_ path: UnsafeBufferPointer<UInt8>) -> Int {
    var size = 16
    var segment = 0
    for byte in path {
      if byte == UInt8(ascii: "/") {
        if segment > 0 { size += segment + 1 }
        segment = 0
      } else {
        segment += 1
      }
    }
    return segment > 0 ? size + segment + 1 : size
  }

  /// The size of a map's fields: each name's UTF-8 length + 1 plus its value's size.
  public static func mapSize(_ fields: [String: Value]) -> Int {
    fields.reduce(0) { $0 + $1.key.utf8.count + 1 + size($1.value) }
  }

  /// A reference counts as the name of the document it points to: what follows
  /// `projects/p/databases/d/documents/` in its full resource name.
  static func referenceSize(_ name: String) -> Int {
    var name = name
    return name.withUTF8 { bytes in
      guard bytes.starts(with: "projects/".utf8) else { return nameSize(bytes) }
      var slashes = 0
      for index in bytes.indices where bytes[index] == UInt8(ascii: "/") {
        slashes += 1
        if slashes == 5 { return nameSize(UnsafeBufferPointer(rebasing: bytes[(index + 1)...])) }
      }
      return nameSize(bytes)
    }
  }

  /// The size of one value.
  public static func size(_ value: Value) -> Int {
    switch value {
    case .null, .boolean: return 1
    case .integer, .double, .timestamp: return 8
    case .string(let s): return s.utf8.count + 1
    case .bytes(let d): return d.count
    case .reference(let r): return referenceSize(r)
    case .geoPoint: return 16
    case .array(let a): return a.reduce(0) { $0 + size($1) }
    case .map(let m): return mapSize(m)
    }
  }
}
