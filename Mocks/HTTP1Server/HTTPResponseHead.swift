import FirestorePlatform

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Builds a response's status line and header block.
package enum HTTPResponseHead {
  /// The head bytes: the handler's headers (minus the framing and connection headers the
  /// server owns, and minus any field containing CR, LF or NUL), `date` and `server` unless
  /// given, then `framing` and the connection header.
  package static func bytes(
    status: Int, headers: [(name: String, value: String)], framing: (name: String, value: String)?, connection: String?
  )
    -> [UInt8]
  {
    var out: [UInt8] = []
    out.reserveCapacity(256)
    out.append(contentsOf: "HTTP/1.1 \(status) \(reasonPhrase(status))\r\n".utf8)
    var hasDate = false
    var hasServer = false
    for (name, value) in headers {
      if isNamed(name, "content-length") || isNamed(name, "transfer-encoding") || isNamed(name, "connection") { continue }
      guard !name.isEmpty, isSafe(name), isSafe(value), !name.utf8.contains(UInt8(ascii: ":")) else { continue }
      hasDate = hasDate || isNamed(name, "date")
      hasServer = hasServer || isNamed(name, "server")
      append(name, value, to: &out)
    }
    if !hasDate { append("date", httpDate(), to: &out) }
    if !hasServer { append("server", "firestore-mock", to: &out) }
    if let framing { append(framing.name, framing.value, to: &out) }
    if let connection { append("connection", connection, to: &out) }
    out.append(contentsOf: "\r\n".utf8)
    return out
  }

  /// The interim response sent before reading a body the client holds back.
  package static let continueBytes = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

  private static func append(_ name: String, _ value: String, to out: inout [UInt8]) {
    out.append(contentsOf: name.utf8)
    out.append(contentsOf: ": ".utf8)
    out.append(contentsOf: value.utf8)
    out.append(contentsOf: "\r\n".utf8)
  }

  /// Whether header `name` is `lowercaseName`, ignoring ASCII case (no lower-cased copy is
  /// made: this runs for every header of every response).
  package static func isNamed(_ name: String, _ lowercaseName: StaticString) -> Bool {
    let expected = UnsafeBufferPointer(start: lowercaseName.utf8Start, count: lowercaseName.utf8CodeUnitCount)
    guard name.utf8.count == expected.count else { return false }
    return zip(name.utf8, expected).allSatisfy { byte, lower in
      byte == lower || ((0x41...0x5A).contains(byte) && byte | 0x20 == lower)
    }
  }

  /// No CR, LF or NUL: a handler's header cannot split the response.
  private static func isSafe(_ text: String) -> Bool {
    !text.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0 }
  }

  /// The last date made, by the second it names: a busy server answers many times a second.
  private static let lastDate = Locked<(second: time_t, text: String)?>(nil)

  /// The IMF-fixdate of now, e.g. `Sun, 30 Nov 2026 03:10:00 GMT`.
  package static func httpDate() -> String {
    let now = time(nil)
    if let last = lastDate.withLock({ $0 }), last.second == now { return last.text }
    let text = httpDate(now)
    lastDate.withLock { $0 = (now, text) }
    return text
  }

  /// The IMF-fixdate of `now`.
  private static func httpDate(_ now: time_t) -> String {
    var now = now
    var parts = tm()
    gmtime_r(&now, &parts)
    let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
    return "\(days[Int(parts.tm_wday) % 7]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon) % 12]) \(parts.tm_year + 1900) "
      + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
  }

  /// The standard reason phrase of a status code.
  package static func reasonPhrase(_ status: Int) -> String {
    switch status {
    case 100: return "Continue"
    case 200: return "OK"
    case 201: return "Created"
    case 202: return "Accepted"
    case 204: return "No Content"
    case 301: return "Moved Permanently"
    case 302: return "Found"
    case 304: return "Not Modified"
    case 400: return "Bad Request"
    case 401: return "Unauthorized"
    case 403: return "Forbidden"
    case 404: return "Not Found"
    case 405: return "Method Not Allowed"
    case 408: return "Request Timeout"
    case 409: return "Conflict"
    case 411: return "Length Required"
    case 412: return "Precondition Failed"
    case 413: return "Payload Too Large"
    case 415: return "Unsupported Media Type"
    case 429: return "Too Many Requests"
    case 431: return "Request Header Fields Too Large"
    case 499: return "Client Closed Request"
    case 500: return "Internal Server Error"
    case 501: return "Not Implemented"
    case 502: return "Bad Gateway"
    case 503: return "Service Unavailable"
    case 504: return "Gateway Timeout"
    case 505: return "HTTP Version Not Supported"
    default: return "Status \(status)"
    }
  }
}
