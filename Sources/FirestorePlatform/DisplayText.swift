/// Turns text on its way to an error message, a log handler or a terminal into text that
/// may be shown: the one place that decides what of a server's reply, a file's contents or
/// a command line reaches a person's screen.
///
/// ```swift
/// DisplayText.sanitize("proxy http://ada:s3cr3t@proxy:3128 said \u{1B}[2J", secrets: [])
/// // "proxy http://***@proxy:3128 said \u{1B}[2J", with the escape spelled out
/// ```
///
/// Any text may come from someone hostile (a server's error body, a proxy's page, a name in
/// a file), so it loses the secrets the caller holds, the credentials of any URL in it, and
/// the control characters a terminal would act on, and a long text is cut.
package enum DisplayText {
  /// What stands in for a removed secret.
  package static let redactionMarker = "<redacted>"
  /// What stands in for the user name and password of a URL.
  package static let credentialsMarker = "***"
  /// Secrets shorter than this are not searched for: they would garble ordinary words.
  package static let shortestSecret = 6
  /// The longest text, in characters, shown whole by default.
  package static let defaultLimit = 1000

  /// `text` ready to be shown: every one of `secrets` replaced with ``redactionMarker``,
  /// every URL's `user:password@` with `***@`, control characters spelled out as
  /// `\u{1B}`, and a text longer than `limit` characters cut to its start followed by
  /// `… (N bytes)` (N being the whole text's UTF-8 size), the result at most `limit` long.
  ///
  /// Applying it again changes nothing (for secrets without the characters of the
  /// markers, `<`, `>`, `*`, and `…`, which could form a secret anew beside them).
  package static func sanitize(_ text: String, secrets: [String] = [], limit: Int = defaultLimit) -> String {
    // Escaped first, and the secrets with it: a secret found only after escaping (one
    // ending in a backslash, before an escape) is still found, so a second pass finds none.
    let escapedSecrets = secrets.filter { $0.count >= shortestSecret }.map(escapingControlCharacters)
    return truncated(redact(escapingControlCharacters(text), secrets: escapedSecrets), limit: limit, bytes: text.utf8.count)
  }

  /// `text` with every secret and every URL's credentials removed, and nothing else changed.
  package static func redact(_ text: String, secrets: [String]) -> String {
    var bytes = Array(text.utf8)
    for secret in secrets where secret.count >= shortestSecret {
      bytes = replacing(Array(secret.utf8), with: Array(redactionMarker.utf8), in: bytes)
    }
    bytes = removingURLCredentials(bytes)
    // Whole UTF-8 sequences were replaced with whole ones, so the bytes are still valid.
    return String(decoding: bytes, as: UTF8.self)
  }

  /// `text` with the characters a terminal acts on spelled out: C0 controls other than
  /// newline and tab, DEL, C1 controls (a lone U+009B starts an escape sequence on some
  /// terminals) and the bidirectional overrides that make text read differently from what
  /// it is.
  package static func escapingControlCharacters(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: isShownEscaped) else { return text }
    var out = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      if isShownEscaped(scalar) {
        out.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
      } else {
        out.append(scalar)
      }
    }
    return String(out)
  }

  /// `text`, or when it is longer than `limit` characters its start and `… (N bytes)`,
  /// `limit` characters in all.
  package static func truncated(_ text: String, limit: Int, bytes: Int? = nil) -> String {
    guard text.count > limit else { return text }
    let suffix = "… (\(bytes ?? text.utf8.count) bytes)"
    return String(text.prefix(max(0, limit - suffix.count))) + suffix
  }

  /// `text` as a message quotes what it refuses: whole when short, else its start and its
  /// size, so that the problem the message goes on to name is not lost behind it.
  package static func excerpt(_ text: String, limit: Int = 80) -> String {
    truncated(text, limit: limit)
  }

  /// The `user:password` of a URL given as text (with or without its scheme, parsable or
  /// not) and the password alone: the secrets to pass to ``sanitize(_:secrets:limit:)``
  /// where a message may quote the URL in a form the URL rule does not recognise.
  package static func credentials(of url: String) -> [String] {
    let afterScheme = url.firstRange(of: "://").map { url[$0.upperBound...] } ?? url[...]
    guard let at = afterScheme.lastIndex(of: "@") else { return [] }
    let userinfo = afterScheme[..<at]
    let password = userinfo.firstIndex(of: ":").map { userinfo[userinfo.index(after: $0)...] } ?? ""
    return [String(userinfo), String(password)].filter { !$0.isEmpty }
  }

  private static func isShownEscaped(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x0A, 0x09: return false
    case 0x00..<0x20, 0x7F..<0xA0: return true
    case 0x202A...0x202E, 0x2066...0x2069: return true
    default: return false
    }
  }

  /// Every occurrence of `needle` in `haystack` replaced with `replacement`.
  private static func replacing(_ needle: [UInt8], with replacement: [UInt8], in haystack: [UInt8]) -> [UInt8] {
    guard !needle.isEmpty, haystack.count >= needle.count else { return haystack }
    var out: [UInt8] = []
    var index = 0
    var copiedUpTo = 0
    let first = needle[0]
    while index + needle.count <= haystack.count {
      if haystack[index] == first && haystack[index..<(index + needle.count)].elementsEqual(needle) {
        out.append(contentsOf: haystack[copiedUpTo..<index])
        out.append(contentsOf: replacement)
        index += needle.count
        copiedUpTo = index
      } else {
        index += 1
      }
    }
    if copiedUpTo == 0 { return haystack }
    out.append(contentsOf: haystack[copiedUpTo...])
    return out
  }

  /// `scheme://user:password@host` → `scheme://***@host`, wherever a URL appears.
  private static func removingURLCredentials(_ bytes: [UInt8]) -> [UInt8] {
    let separator = Array("://".utf8)
    var out: [UInt8] = []
    var index = 0
    var copiedUpTo = 0
    while index + separator.count <= bytes.count {
      guard bytes[index] == UInt8(ascii: ":"), bytes[index..<(index + separator.count)].elementsEqual(separator),
        index > 0, isSchemeByte(bytes[index - 1])
      else {
        index += 1
        continue
      }
      let authorityStart = index + separator.count
      var end = authorityStart
      var lastAt: Int?
      while end < bytes.count, !endsAuthority(bytes[end]) {
        if bytes[end] == UInt8(ascii: "@") { lastAt = end }
        end += 1
      }
      if let lastAt {
        out.append(contentsOf: bytes[copiedUpTo..<authorityStart])
        out.append(contentsOf: credentialsMarker.utf8)
        copiedUpTo = lastAt
      }
      index = end
    }
    if copiedUpTo == 0 { return bytes }
    out.append(contentsOf: bytes[copiedUpTo...])
    return out
  }

  private static func isSchemeByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
      UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
      return true
    default: return false
    }
  }

  /// Whether `byte` ends a URL's authority, or the URL: the path, query and fragment
  /// delimiters, white space, controls, and the quotes and brackets text wraps a URL in.
  private static func endsAuthority(_ byte: UInt8) -> Bool {
    if byte <= 0x20 || byte == 0x7F { return true }
    return "/?#\"'<>`\\".utf8.contains(byte)
  }
}
