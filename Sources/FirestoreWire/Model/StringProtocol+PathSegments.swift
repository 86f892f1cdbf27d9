extension StringProtocol {
  /// The `/`-separated segments of a resource path, split at every `/` byte as the server
  /// splits names; empty segments are kept (`"a//b"` gives `["a", "", "b"]`, `""` gives
  /// `[""]`).
  ///
  /// Not `split(separator: "/")`, which compares Swift `Character`s: a combining mark right
  /// after a slash (`"c/\u{301}d"`, a document `\u{301}d` in `c`) forms one `Character` with
  /// it, and the path would not split there.
  package var slashSegments: [String] {
    utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
  }

  /// Whether the UTF-8 of `self` begins with that of `prefix`, as the server compares
  /// names (`hasPrefix` compares `Character`s: `"c/\u{301}d".hasPrefix("c/")` is false).
  package func hasBytePrefix(_ prefix: some StringProtocol) -> Bool {
    utf8.starts(with: prefix.utf8)
  }

  /// What follows `prefix`, compared and cut on UTF-8 (see ``hasBytePrefix(_:)``), or `nil`
  /// when `self` does not begin with it. (`dropFirst(prefix.count)` counts `Character`s,
  /// and would also drop a combining mark that follows the prefix's last slash.)
  package func removingBytePrefix(_ prefix: some StringProtocol) -> String? {
    guard hasBytePrefix(prefix) else { return nil }
    return String(decoding: utf8.dropFirst(prefix.utf8.count), as: UTF8.self)
  }
}
