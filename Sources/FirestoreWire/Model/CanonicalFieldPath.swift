/// The server's text form of a field path: names joined by dots, each back-quoted unless it
/// is a plain identifier (`[A-Za-z_][A-Za-z_0-9]*`), with back-quotes and backslashes inside
/// quotes escaped by a backslash. `__name__` is the document-key pseudo-field.
public enum CanonicalFieldPath {
  /// The document-key pseudo-field.
  public static let documentKey = "__name__"

  /// Joins field names into canonical text.
  public static func encode(_ segments: [String]) -> String {
    segments.map(quote).joined(separator: ".")
  }

  /// Splits canonical text into field names.
  ///
  /// - Throws: ``WireFormatError`` for an empty name or an unterminated quote.
  public static func decode(_ text: String) throws -> [String] {
    var segments: [String] = []
    var current = ""
    var quoted = false
    var escaping = false
    var wasQuoted = false
    for ch in text {
      if escaping {
        current.append(ch)
        escaping = false
      } else if quoted {
        if ch == "\\" { escaping = true } else if ch == "`" { quoted = false } else { current.append(ch) }
      } else if ch == "`" {
        quoted = true
        wasQuoted = true
      } else if ch == "." {
        if current.isEmpty && !wasQuoted { throw WireFormatError("field path \"\(text)\" has an empty field name") }
        segments.append(current)
        current = ""
        wasQuoted = false
      } else {
        current.append(ch)
      }
    }
    if quoted || escaping { throw WireFormatError("field path \"\(text)\" has an unterminated back-quote") }
    if current.isEmpty && !wasQuoted { throw WireFormatError("field path \"\(text)\" has an empty field name") }
    segments.append(current)
    return segments
  }

  /// One name in canonical form: as it is when a plain identifier, else back-quoted.
  public static func quote(_ name: String) -> String {
    if isPlainIdentifier(name) { return name }
    var out = "`"
    for ch in name {
      if ch == "`" || ch == "\\" { out.append("\\") }
      out.append(ch)
    }
    return out + "`"
  }

  /// Whether `name` needs no quoting.
  public static func isPlainIdentifier(_ name: String) -> Bool {
    guard let first = name.utf8.first else { return false }
    func letter(_ b: UInt8) -> Bool { (b >= 65 && b <= 90) || (b >= 97 && b <= 122) || b == 95 }
    return letter(first) && name.utf8.allSatisfy { letter($0) || ($0 >= 48 && $0 <= 57) }
  }
}
