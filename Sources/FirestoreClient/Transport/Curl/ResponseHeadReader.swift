import Foundation

/// Assembles a response head from the lines libcurl hands over one by one: the status line
/// (`HTTP/1.1 200 OK`, `HTTP/2 200`), the header lines, and the blank line that ends it.
/// Interim `1xx` heads are skipped.
struct ResponseHeadReader: Sendable {
  /// Header fields, names lower-cased; a repeated name's values joined with `, `.
  private(set) var headers: [String: String] = [:]
  private var status: Int?
  /// The status, once the final head is complete.
  private(set) var completedStatus: Int?
  /// Whether any line of a head arrived.
  private(set) var started = false

  /// Takes one line, with its line ending; `true` when it completed the final head.
  mutating func append(_ line: UnsafeRawBufferPointer) -> Bool {
    guard completedStatus == nil else { return false }
    var bytes = line[...]
    while let last = bytes.last, last == UInt8(ascii: "\r") || last == UInt8(ascii: "\n") { bytes = bytes.dropLast() }
    if bytes.isEmpty {
      guard let status else { return false }
      if (100..<200).contains(status) {
        // An interim response (`100 Continue`): the real one follows.
        self.status = nil
        headers.removeAll(keepingCapacity: true)
        return false
      }
      completedStatus = status
      return true
    }
    started = true
    if bytes.starts(with: "HTTP/".utf8) {
      // `HTTP/1.1 200 OK` or `HTTP/2 200`: the code is the second word.
      status = nil
      if let space = bytes.firstIndex(of: UInt8(ascii: " ")) {
        let code = bytes[space...].drop { $0 == UInt8(ascii: " ") }.prefix { $0 != UInt8(ascii: " ") }
        status = Int(String(decoding: code, as: UTF8.self))
      }
      headers.removeAll(keepingCapacity: true)
      return false
    }
    guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return false }
    let nameBytes = Self.trimmed(bytes[..<colon])
    var name = String(decoding: nameBytes, as: UTF8.self)
    // Most servers send lower-case names already (HTTP/2 must): no copy for those.
    if nameBytes.contains(where: { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) || $0 >= 0x80 }) { name = name.lowercased() }
    let value = String(decoding: Self.trimmed(bytes[bytes.index(after: colon)...]), as: UTF8.self)
    if let existing = headers[name] {
      headers[name] = existing + ", " + value
    } else {
      headers[name] = value
    }
    return false
  }

  /// `bytes` without the spaces and tabs around it (HTTP's optional white space).
  private static func trimmed(_ bytes: Slice<UnsafeRawBufferPointer>) -> Slice<UnsafeRawBufferPointer> {
    var bytes = bytes
    while let first = bytes.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") { bytes = bytes.dropFirst() }
    while let last = bytes.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") { bytes = bytes.dropLast() }
    return bytes
  }
}
