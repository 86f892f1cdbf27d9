import Foundation

/// An incremental HTTP/1.1 response parser: bytes go in as they arrive from the socket,
/// the head, body pieces and the end of the message come out.
///
/// It frames the body by `Content-Length`, `Transfer-Encoding: chunked` or the end of the
/// connection (RFC 9112 §6.3), skips interim `1xx` heads, and knows that `HEAD` replies and
/// `204`/`304` have no body. Anything it cannot frame is a ``ParseError``: a response from
/// a broken server or proxy must fail the call, never crash the client or hang it.
struct HTTPResponseParser {
  /// What the bytes so far contained, in order.
  enum Event: Equatable {
    /// The status line and header fields (names lower-cased, repeats joined by `, `).
    case head(status: Int, headers: [String: String])
    /// A piece of the body, de-chunked.
    case body(Data)
    /// The message is complete.
    case end
  }

  /// Why a response cannot be parsed; the text names the problem.
  struct ParseError: Error, Equatable, CustomStringConvertible {
    var description: String
    /// The connection ended before the response did (``finish()``), as opposed to bytes
    /// that are not HTTP.
    var connectionClosed = false
  }

  /// The largest head (status line and fields) accepted.
  static let maximumHeadBytes = 64 << 10
  /// The longest chunk-size or trailer line accepted.
  static let maximumLineBytes = 4 << 10

  private enum State {
    case head
    case body(remaining: Int)
    case chunkSize
    case chunkData(remaining: Int)
    case chunkDataEnd
    case trailers
    case untilClose
    case done
  }

  private let requestMethod: String
  private var state = State.head
  private var pending: [UInt8] = []
  /// How far into the head or line in progress the search for its end has got: bytes
  /// that trickle in are not scanned again (which would be quadratic in the head size).
  private var scanned = 0
  /// Whether the connection may carry another request once the message is complete.
  private(set) var keepAlive = true
  /// Whether the message is complete.
  var isComplete: Bool {
    if case .done = state { return true }
    return false
  }

  /// Creates a parser for the reply to a request with `requestMethod`.
  init(requestMethod: String) {
    self.requestMethod = requestMethod
  }

  /// Consumes the next bytes from the connection.
  mutating func append(_ bytes: UnsafeRawBufferPointer) throws -> [Event] {
    var events: [Event] = []
    // Body bytes of a sized message go straight through, without a copy into `pending`.
    if pending.isEmpty, case .body(let remaining) = state {
      let take = min(remaining, bytes.count)
      if take > 0 { events.append(.body(Data(bytes[..<take]))) }
      state = remaining == take ? .done : .body(remaining: remaining - take)
      if case .done = state { events.append(.end) }
      guard take < bytes.count else { return events }
      pending.append(contentsOf: bytes[take...])
    } else {
      pending.append(contentsOf: bytes)
    }
    try process(into: &events)
    return events
  }

  /// Consumes the next bytes from the connection.
  mutating func append(_ bytes: [UInt8]) throws -> [Event] {
    try bytes.withUnsafeBytes { (raw) throws -> [Event] in try append(raw) }
  }

  /// The connection ended: completes a message framed by the connection's end, and fails
  /// when the message was cut short.
  mutating func finish() throws -> [Event] {
    switch state {
    case .done:
      return []
    case .untilClose:
      state = .done
      keepAlive = false
      return [.end]
    case .head:
      throw ParseError(
        description: pending.isEmpty ? "the connection closed before a response arrived" : "the connection closed inside the response head",
        connectionClosed: true)
    default:
      throw ParseError(description: "the connection closed before the response body was complete", connectionClosed: true)
    }
  }

  private mutating func process(into events: inout [Event]) throws {
    var index = 0
    defer { pending.removeFirst(index) }
    while index < pending.count {
      switch state {
      case .done:
        // Bytes after the end of the response: the connection's framing can no longer be
        // trusted, so it is not reused; the response itself stands.
        keepAlive = false
        index = pending.count
        return
      case .head:
        // The limit holds however the head arrives: cut into reads or in one piece.
        let tooLong = ParseError(description: "response head longer than \(Self.maximumHeadBytes) bytes")
        guard let end = headEnd(from: index) else {
          if pending.count - index > Self.maximumHeadBytes { throw tooLong }
          return
        }
        if end.next - index > Self.maximumHeadBytes { throw tooLong }
        let (status, isHTTP10, headers) = try Self.parseHead(pending[index..<end.headEnd])
        index = end.next
        try begin(status: status, isHTTP10: isHTTP10, headers: headers, into: &events)
      case .body(let remaining):
        let take = min(remaining, pending.count - index)
        events.append(.body(Data(pending[index..<index + take])))
        index += take
        state = remaining == take ? .done : .body(remaining: remaining - take)
        if case .done = state { events.append(.end) }
      case .untilClose:
        events.append(.body(Data(pending[index...])))
        index = pending.count
      case .chunkSize:
        guard let (line, next) = try readLine(from: index, what: "chunk size") else { return }
        index = next
        let digits = line.prefix { $0 != UInt8(ascii: ";") }.filter { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }
        // Hex digits only: Int(_:radix:) also takes a sign, and a chunk of size -8 would
        // make a negative byte count.
        guard !digits.isEmpty, digits.count <= 15, digits.allSatisfy(\.isHexDigit),
          let size = Int(String(decoding: digits, as: UTF8.self), radix: 16)
        else {
          throw ParseError(description: "invalid chunk size line \"\(String(decoding: line.prefix(40), as: UTF8.self))\"")
        }
        state = size == 0 ? .trailers : .chunkData(remaining: size)
      case .chunkData(let remaining):
        let take = min(remaining, pending.count - index)
        events.append(.body(Data(pending[index..<index + take])))
        index += take
        state = remaining == take ? .chunkDataEnd : .chunkData(remaining: remaining - take)
      case .chunkDataEnd:
        guard let (line, next) = try readLine(from: index, what: "chunk end") else { return }
        guard line.isEmpty else { throw ParseError(description: "chunk data longer than its declared size") }
        index = next
        state = .chunkSize
      case .trailers:
        guard let (line, next) = try readLine(from: index, what: "trailer") else { return }
        index = next
        if line.isEmpty {
          state = .done
          events.append(.end)
        }
      }
    }
  }

  /// Where the head starting at `start` ends: the blank line (CRLF CRLF, or bare LFs).
  /// Resumes where the previous search for the same head stopped.
  private mutating func headEnd(from start: Int) -> (headEnd: Int, next: Int)? {
    var i = start + scanned
    while i < pending.count {
      if pending[i] == UInt8(ascii: "\n") {
        if i + 1 < pending.count, pending[i + 1] == UInt8(ascii: "\n") {
          scanned = 0
          return (i, i + 2)
        }
        if i + 2 < pending.count, pending[i + 1] == UInt8(ascii: "\r"), pending[i + 2] == UInt8(ascii: "\n") {
          scanned = 0
          return (i, i + 3)
        }
      }
      i += 1
    }
    // The last two bytes may begin the blank line: look at them again next time.
    scanned = max(0, pending.count - start - 2)
    return nil
  }

  /// One line (without its CRLF or LF) starting at `start`, or `nil` when it is not all in.
  /// The line with its end must fit in ``maximumLineBytes``, however it arrives.
  private mutating func readLine(from start: Int, what: String) throws -> (ArraySlice<UInt8>, Int)? {
    let tooLong = ParseError(description: "\(what) line longer than \(Self.maximumLineBytes) bytes")
    guard let lf = pending[(start + scanned)...].firstIndex(of: UInt8(ascii: "\n")) else {
      if pending.count - start > Self.maximumLineBytes { throw tooLong }
      scanned = pending.count - start
      return nil
    }
    scanned = 0
    if lf + 1 - start > Self.maximumLineBytes { throw tooLong }
    var end = lf
    if end > start, pending[end - 1] == UInt8(ascii: "\r") { end -= 1 }
    return (pending[start..<end], lf + 1)
  }

  private static func parseHead(_ bytes: ArraySlice<UInt8>) throws -> (Int, Bool, [String: String]) {
    // Split on bytes: as Swift text, CR LF is one Character and would not split on LF.
    var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line in
      String(decoding: line.last == UInt8(ascii: "\r") ? line.dropLast() : line, as: UTF8.self)
    }
    let statusLine = lines.removeFirst()
    let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
    guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), parts[1].count == 3, let status = Int(parts[1]), status >= 100 else {
      throw ParseError(description: "invalid status line \"\(statusLine.prefix(60))\"")
    }
    var headers: [String: String] = [:]
    for line in lines where !line.isEmpty {
      guard let colon = line.firstIndex(of: ":"), colon > line.startIndex, line.first != " ", line.first != "\t" else {
        throw ParseError(description: "invalid header line \"\(line.prefix(60))\"")
      }
      let name = line[..<colon].lowercased()
      let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      headers[name] = headers[name].map { "\($0), \(value)" } ?? value
    }
    return (status, parts[0] == "HTTP/1.0", headers)
  }

  /// Chooses the body framing of a head just parsed.
  private mutating func begin(status: Int, isHTTP10: Bool, headers: [String: String], into events: inout [Event]) throws {
    if (100..<200).contains(status) && status != 101 {
      return  // an interim reply (100 Continue): the real head follows
    }
    let connection = headers["connection"]?.lowercased() ?? ""
    if isHTTP10 {
      keepAlive = connection.contains("keep-alive")
    } else if connection.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == "close" }) {
      keepAlive = false
    }
    events.append(.head(status: status, headers: headers))
    if requestMethod == "HEAD" || status == 204 || status == 304 || status == 101 {
      state = .done
      events.append(.end)
      if status == 101 { keepAlive = false }
      return
    }
    if let coding = headers["transfer-encoding"] {
      let codings = coding.lowercased().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
      if codings.last == "chunked" {
        state = .chunkSize
      } else {
        state = .untilClose
        keepAlive = false
      }
      return
    }
    if let length = headers["content-length"] {
      let values = Set(length.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
      guard values.count == 1, let value = values.first, !value.isEmpty, value.allSatisfy(\.isASCII), value.allSatisfy(\.isNumber),
        value.count <= 15, let count = Int(value)
      else {
        throw ParseError(description: "invalid Content-Length \"\(length.prefix(40))\"")
      }
      state = .body(remaining: count)
      if count == 0 {
        state = .done
        events.append(.end)
      }
      return
    }
    state = .untilClose
    keepAlive = false
  }
}

extension UInt8 {
  /// Whether this byte is an ASCII hex digit (`0-9 A-F a-f`).
  fileprivate var isHexDigit: Bool {
    (0x30...0x39).contains(self) || (0x41...0x46).contains(self) || (0x61...0x66).contains(self)
  }
}
