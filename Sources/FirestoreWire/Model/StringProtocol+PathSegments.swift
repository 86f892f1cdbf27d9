#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

// Inlinable: the other modules call these once per stored path in their hottest loops, and
// a generic call across modules runs unspecialized, looking up metadata at every step.
// Each works on the string's own bytes when they are contiguous (every native string):
// walking `utf8` an index at a time costs some two thousand instructions a call, and a
// query's or a batch's every document makes one or two.
extension StringProtocol {
  /// The `/`-separated segments of a resource path, split at every `/` byte as the server
  /// splits names; empty segments are kept (`"a//b"` gives `["a", "", "b"]`, `""` gives
  /// `[""]`).
  ///
  /// Not `split(separator: "/")`, which compares Swift `Character`s: a combining mark right
  /// after a slash (`"c/\u{301}d"`, a document `\u{301}d` in `c`) forms one `Character` with
  /// it, and the path would not split there.
  @inlinable
  package var slashSegments: [String] {
    if let segments = utf8.withContiguousStorageIfAvailable({ $0.slashSegments }) { return segments }
    // Straight into the result, made at its size: `split` then `map` made an array of
    // slices first, and growing the result reallocates it.
    let bytes = utf8
    var segments: [String] = []
    segments.reserveCapacity(bytes.reduce(1) { $1 == UInt8(ascii: "/") ? $0 + 1 : $0 })
    var start = bytes.startIndex
    var index = start
    while index != bytes.endIndex {
      if bytes[index] == UInt8(ascii: "/") {
        segments.append(String(decoding: bytes[start..<index], as: UTF8.self))
        start = bytes.index(after: index)
      }
      index = bytes.index(after: index)
    }
    segments.append(String(decoding: bytes[start..<index], as: UTF8.self))
    return segments
  }

  /// Whether the UTF-8 of `self` begins with that of `prefix`, as the server compares
  /// names (`hasPrefix` compares `Character`s: `"c/\u{301}d".hasPrefix("c/")` is false).
  @inlinable
  package func hasBytePrefix(_ prefix: some StringProtocol) -> Bool {
    let contiguous = utf8.withContiguousStorageIfAvailable { mine in
      prefix.utf8.withContiguousStorageIfAvailable { mine.begins(with: $0) }
    }
    if let known = contiguous ?? nil { return known }
    return utf8.starts(with: prefix.utf8)
  }

  /// The path below `root` in a resource name (`root/a/b` gives `a/b`), compared and cut on
  /// UTF-8; `nil` when `self` is not below `root` or names `root` itself. The root and its
  /// slash are checked apart, so no joined prefix is made on every call.
  @inlinable
  package func pathBelow(_ root: some StringProtocol) -> String? {
    var below: String?
    let contiguous =
      utf8.withContiguousStorageIfAvailable { mine in
        root.utf8.withContiguousStorageIfAvailable { below = mine.path(below: $0) } != nil
      } ?? false
    if contiguous { return below }
    guard hasBytePrefix(root) else { return nil }
    let rest = utf8.dropFirst(root.utf8.count)
    guard rest.first == UInt8(ascii: "/"), rest.count > 1 else { return nil }
    return String(decoding: rest.dropFirst(), as: UTF8.self)
  }

  /// What follows `prefix`, compared and cut on UTF-8 (see ``hasBytePrefix(_:)``), or `nil`
  /// when `self` does not begin with it. (`dropFirst(prefix.count)` counts `Character`s,
  /// and would also drop a combining mark that follows the prefix's last slash.)
  @inlinable
  package func removingBytePrefix(_ prefix: some StringProtocol) -> String? {
    guard hasBytePrefix(prefix) else { return nil }
    let count = prefix.utf8.count
    return utf8.withContiguousStorageIfAvailable { String(decoding: UnsafeBufferPointer(rebasing: $0[count...]), as: UTF8.self) }
      ?? String(decoding: utf8.dropFirst(count), as: UTF8.self)
  }
}

extension UnsafeBufferPointer<UInt8> {
  /// The bytes as `/`-separated segments (see ``StringProtocol/slashSegments``).
  @inlinable
  var slashSegments: [String] {
    var count = 1
    for byte in self where byte == UInt8(ascii: "/") { count += 1 }
    var segments: [String] = []
    segments.reserveCapacity(count)
    var start = 0
    for index in indices where self[index] == UInt8(ascii: "/") {
      segments.append(String(decoding: UnsafeBufferPointer(rebasing: self[start..<index]), as: UTF8.self))
      start = index + 1
    }
    segments.append(String(decoding: UnsafeBufferPointer(rebasing: self[start...]), as: UTF8.self))
    return segments
  }

  /// Whether these bytes begin with `prefix`'s.
  @inlinable
  func begins(with prefix: UnsafeBufferPointer<UInt8>) -> Bool {
    guard count >= prefix.count else { return false }
    guard let mine = baseAddress, let theirs = prefix.baseAddress else { return true }
    return memcmp(mine, theirs, prefix.count) == 0
  }

  /// The bytes after `root` and one slash, as a string; `nil` when they do not begin so or
  /// nothing follows the slash.
  @inlinable
  func path(below root: UnsafeBufferPointer<UInt8>) -> String? {
    guard count > root.count + 1, self[root.count] == UInt8(ascii: "/"), begins(with: root) else { return nil }
    return String(decoding: UnsafeBufferPointer(rebasing: self[(root.count + 1)...]), as: UTF8.self)
  }
}

extension String {
  /// `root`, then each of `segments` after a `/` (`root/a/b`; `root` alone for none): a
  /// resource name, made in one buffer of its exact size. Appending piece by piece grows and
  /// re-checks the string at each step, and every reference makes a name.
  @inlinable
  package init(root: String, slashSegments segments: [String]) {
    var count = root.utf8.count + segments.count
    for segment in segments { count += segment.utf8.count }
    self.init(unsafeUninitializedCapacity: count) { buffer in
      var end = buffer.put(root, at: 0)
      for segment in segments {
        buffer[end] = UInt8(ascii: "/")
        end = buffer.put(segment, at: end + 1)
      }
      return end
    }
  }
}

extension UnsafeMutableBufferPointer<UInt8> {
  /// Copies the UTF-8 of `string` to `start`, and returns where it ends.
  @inlinable
  func put(_ string: String, at start: Int) -> Int {
    var string = string
    return string.withUTF8 { bytes in
      guard let source = bytes.baseAddress, let target = baseAddress else { return start }
      (target + start).initialize(from: source, count: bytes.count)
      return start + bytes.count
    }
  }
}
