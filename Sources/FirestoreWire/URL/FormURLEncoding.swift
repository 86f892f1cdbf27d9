/// `k=v&k=v` text: WebChannel query strings, `application/x-www-form-urlencoded` bodies
/// (WebChannel forward bodies, token endpoint requests), each side percent-encoded by
/// ``PercentEncoding``.
package enum FormURLEncoding {
  /// `pairs` as `k=v&k=v`, both sides encoded.
  package static func query(_ pairs: [(String, String)]) -> String {
    pairs.map { PercentEncoding.encode($0.0) + "=" + PercentEncoding.encode($0.1) }.joined(separator: "&")
  }

  /// Decodes one form component: `+` is a space, `%XX` a byte (either hex case); the
  /// result must be valid UTF-8.
  ///
  /// - Throws: ``WireFormatError`` for a truncated or non-hex escape, or invalid UTF-8.
  static func decode(_ s: Substring) throws -> String {
    guard let text = PercentEncoding.decode(s.utf8, plusIsSpace: true) else {
      throw WireFormatError("invalid percent escape or UTF-8 in form component \"\(s.prefix(40))\"")
    }
    return text
  }

  /// Splits `k=v&k=v` into decoded pairs; empty segments are skipped and a segment without
  /// `=` has an empty value (as browsers and the Java servlet decoder treat them).
  package static func pairs(_ text: String) throws -> [(String, String)] {
    try text.split(separator: "&", omittingEmptySubsequences: true).map { segment in
      guard let eq = segment.firstIndex(of: "=") else { return (try decode(segment), "") }
      return (try decode(segment[..<eq]), try decode(segment[segment.index(after: eq)...]))
    }
  }
}
