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
  ///
  /// Read on the line's own bytes, by offset: every reply's head passes here on the event
  /// loop's thread, between the server's answer and its reader.
  mutating func append(_ line: UnsafeRawBufferPointer) -> Bool {
    guard completedStatus == nil else { return false }
    let bytes = line.assumingMemoryBound(to: UInt8.self)
    var end = bytes.count
    while end > 0, bytes[end - 1] == UInt8(ascii: "\r") || bytes[end - 1] == UInt8(ascii: "\n") { end -= 1 }
    if end == 0 {
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
    if Self.isStatusLine(bytes, end: end) {
      status = Self.statusCode(bytes, end: end)
      // Room for a usual head's fields at once, not grown (and rehashed) field by field.
      headers = Dictionary(reservingCapacity: Self.usualFieldCount)
      return false
    }
    guard let colon = bytes[..<end].firstIndex(of: UInt8(ascii: ":")) else { return false }
    let nameBytes = Self.trimmed(bytes, 0, colon)
    var name = String(decoding: nameBytes, as: UTF8.self)
    // Most servers send lower-case names already (HTTP/2 must): no copy for those.
    if nameBytes.contains(where: { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) || $0 >= 0x80 }) { name = name.lowercased() }
    let value = String(decoding: Self.trimmed(bytes, colon + 1, end), as: UTF8.self)
    // One lookup for a name not seen before (nearly all of them).
    if let existing = headers.updateValue(value, forKey: name) { headers[name] = existing + ", " + value }
    return false
  }

  /// The fields a head is given room for when it starts: a reply with no more is read
  /// without growing the table.
  private static let usualFieldCount = 12

  /// Whether the line (up to `end`) begins as a status line does (`HTTP/`).
  private static func isStatusLine(_ bytes: UnsafeBufferPointer<UInt8>, end: Int) -> Bool {
    end >= 5 && bytes[0] == UInt8(ascii: "H") && bytes[1] == UInt8(ascii: "T") && bytes[2] == UInt8(ascii: "T")
      && bytes[3] == UInt8(ascii: "P") && bytes[4] == UInt8(ascii: "/")
  }

  /// The code of `HTTP/1.1 200 OK` or `HTTP/2 200`: the second word, when it is a number.
  private static func statusCode(_ bytes: UnsafeBufferPointer<UInt8>, end: Int) -> Int? {
    guard var start = bytes[..<end].firstIndex(of: UInt8(ascii: " ")) else { return nil }
    while start < end, bytes[start] == UInt8(ascii: " ") { start += 1 }
    var stop = start
    while stop < end, bytes[stop] != UInt8(ascii: " ") { stop += 1 }
    return Int(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<stop]), as: UTF8.self))
  }

  /// The bytes from `start` to `end` without the spaces and tabs around them (HTTP's
  /// optional white space).
  private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> UnsafeBufferPointer<UInt8> {
    var start = start
    var end = end
    while start < end, bytes[start] == UInt8(ascii: " ") || bytes[start] == UInt8(ascii: "\t") { start += 1 }
    while end > start, bytes[end - 1] == UInt8(ascii: " ") || bytes[end - 1] == UInt8(ascii: "\t") { end -= 1 }
    return UnsafeBufferPointer(rebasing: bytes[start..<end])
  }
}
