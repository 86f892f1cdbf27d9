/// Strict parsing of field paths in requests (query filters, orderBy, select, aggregations),
/// with the emulator's error messages.
///
/// `CanonicalFieldPath.decode` is lenient (it accepts `my-field` unquoted); the emulator
/// is not, so request paths go through here first.
enum FieldPathParser {
  /// The document-key pseudo-field.
  static let documentKey = "__name__"

  /// Splits `text` into field names, rejecting what the emulator rejects (all verified):
  /// an empty path, an unquoted name that is not `[a-zA-Z_][a-zA-Z_0-9]*`, an empty or
  /// unterminated quoted name, a backslash escaping anything but a back-quote or a backslash, `__key__`,
  /// `__name__` anywhere but alone, and other reserved names (`__…__`, at least one character
  /// between the underscores).
  static func parse(_ text: String) throws(MockError) -> [String] {
    if text.isEmpty { throw .invalidArgument("Invalid empty property path string.") }
    guard let segments = split(text) else {
      throw .invalidArgument(
        "Invalid property path \"\(text)\". Unquoted property paths must match regex ([a-zA-Z_][a-zA-Z_0-9]*), "
          + "and quoted property paths must match regex (`(?:[^`\\\\]|(?:\\\\.))+`)")
    }
    for segment in segments {
      if segment == "__key__" { throw .invalidArgument("Invalid property path member name \"__key__\".") }
      if segment == documentKey {
        if segments.count > 1 { throw .invalidArgument("the name __key__ is reserved") }
      } else if isReserved(segment) {
        throw .invalidArgument("Invalid reserved name in field path \(segment)")
      }
    }
    return segments
  }

  /// The field names joined by dots without quoting, as the emulator prints paths in messages.
  static func display(_ segments: [String]) -> String {
    segments.joined(separator: ".")
  }

  /// Whether a path (already split) is the document key.
  static func isDocumentKey(_ segments: [String]) -> Bool {
    segments.count == 1 && segments[0] == documentKey
  }

  /// Whether a field name is reserved: `__…__` with at least one character between.
  static func isReserved(_ name: String) -> Bool {
    name.utf8.count >= 5 && name.hasPrefix("__") && name.hasSuffix("__")
  }

  /// The names of a syntactically valid path, or `nil`.
  private static func split(_ text: String) -> [String]? {
    var segments: [String] = []
    var scalars = Array(text.unicodeScalars)[...]
    while true {
      guard let first = scalars.first else { return nil }
      var name = String.UnicodeScalarView()
      if first == "`" {
        scalars.removeFirst()
        var closed = false
        while let c = scalars.popFirst() {
          if c == "`" {
            closed = true
            break
          }
          if c == "\\" {
            // Only a back-quote or a backslash may follow (verified: `x\y` is rejected).
            guard let escaped = scalars.popFirst(), escaped == "`" || escaped == "\\" else { return nil }
            name.append(escaped)
          } else {
            name.append(c)
          }
        }
        guard closed, !name.isEmpty else { return nil }
      } else {
        guard isIdentifierStart(first) else { return nil }
        while let c = scalars.first, c != "." {
          guard isIdentifierStart(c) || ("0"..."9").contains(c) else { return nil }
          name.append(c)
          scalars.removeFirst()
        }
      }
      segments.append(String(name))
      guard let next = scalars.popFirst() else { return segments }
      guard next == "." else { return nil }
    }
  }

  private static func isIdentifierStart(_ c: Unicode.Scalar) -> Bool {
    ("a"..."z").contains(c) || ("A"..."Z").contains(c) || c == "_"
  }
}
