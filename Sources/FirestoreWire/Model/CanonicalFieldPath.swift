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
  /// Reads Unicode scalars, not Swift `Character`s: a combining mark after a back-quote,
  /// a backslash or a dot must not hide it (``quote(_:)`` writes scalars the same way).
  ///
  /// - Throws: ``WireFormatError`` for an empty name or an unterminated quote.
  public static func decode(_ text: String) throws -> [String] {
    var segments: [String] = []
    var current = String.UnicodeScalarView()
    var quoted = false
    var escaping = false
    var wasQuoted = false
    for scalar in text.unicodeScalars {
      if escaping {
        current.append(scalar)
        escaping = false
      } else if quoted {
        if scalar == "\\" {
          escaping = true
        } else if scalar == "`" {
          quoted = false
        } else {
          current.append(scalar)
        }
      } else if scalar == "`" {
        quoted = true
        wasQuoted = true
      } else if scalar == "." {
        if current.isEmpty && !wasQuoted { throw WireFormatError("field path \"\(text)\" has an empty field name") }
        segments.append(String(current))
        current = String.UnicodeScalarView()
        wasQuoted = false
      } else {
        current.append(scalar)
      }
    }
    if quoted || escaping { throw WireFormatError("field path \"\(text)\" has an unterminated back-quote") }
    if current.isEmpty && !wasQuoted { throw WireFormatError("field path \"\(text)\" has an empty field name") }
    segments.append(String(current))
    return segments
  }

  /// One name in canonical form: as it is when a plain identifier, else back-quoted.
  public static func quote(_ name: String) -> String {
    if isPlainIdentifier(name) { return name }
    var out = String.UnicodeScalarView()
    out.append("`")
    for scalar in name.unicodeScalars {
      if scalar == "`" || scalar == "\\" { out.append("\\") }
      out.append(scalar)
    }
    out.append("`")
    return String(out)
  }

  /// Whether `name` needs no quoting.
  public static func isPlainIdentifier(_ name: String) -> Bool {
    guard let first = name.utf8.first else { return false }
    func letter(_ b: UInt8) -> Bool { (b >= 65 && b <= 90) || (b >= 97 && b <= 122) || b == 95 }
    return letter(first) && name.utf8.allSatisfy { letter($0) || ($0 >= 48 && $0 <= 57) }
  }
}
