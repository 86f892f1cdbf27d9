import FirestoreWire

/// A parsed request line and header block.
package struct HTTPRequestHead: Sendable {
  /// How the request body is delimited.
  package enum BodyFraming: Equatable, Sendable {
    case none
    case length(Int)
    case chunked
  }

  package var method: String
  /// The path as sent (percent-encoded), without the query.
  package var rawPath: String
  /// The percent-decoded path.
  package var path: String
  /// The raw query string, without `?`.
  package var rawQuery: String
  /// The percent-decoded query parameters, in order.
  package var query: [(name: String, value: String)]
  /// The minor version of HTTP/1.x.
  package var minorVersion: Int
  /// Header fields in order, names lower-cased.
  package var headers: [(name: String, value: String)]

  /// All values of a header, split at commas, trimmed and lower-cased.
  package func tokens(_ name: String) -> [String] {
    let values = headers.filter { $0.name == name }.flatMap { $0.value.split(separator: ",") }
    return values.map { $0.trimmingSpaces().lowercased() }.filter { !$0.isEmpty }
  }

  /// Whether the client wants the connection kept open after the response.
  package var wantsKeepAlive: Bool {
    let connection = tokens("connection")
    return minorVersion >= 1 ? !connection.contains("close") : connection.contains("keep-alive")
  }

  /// Whether the client waits for `100 Continue` before sending the body.
  package var expectsContinue: Bool {
    minorVersion >= 1 && tokens("expect").contains("100-continue")
  }

  /// Whether both `Transfer-Encoding` and `Content-Length` were sent; such a request is
  /// answered and the connection closed (RFC 9112 §6.1: a smuggling risk otherwise).
  package var hasConflictingFraming: Bool {
    headers.contains { $0.name == "transfer-encoding" } && headers.contains { $0.name == "content-length" }
  }

  /// How the body is framed.
  /// - Throws: 400 for a bad `Content-Length` or misplaced `chunked`, 501 for other
  ///   transfer codings, 413 when the declared length exceeds `maximumBodyBytes`.
  package func bodyFraming(maximumBodyBytes: Int) throws -> BodyFraming {
    let codings = tokens("transfer-encoding")
    if headers.contains(where: { $0.name == "transfer-encoding" }) {
      guard codings.last == "chunked" else {
        if codings.contains("chunked") { throw HTTPRequestError.badRequest("Transfer-Encoding must end with chunked.") }
        throw HTTPRequestError(
          status: 501, grpcStatus: "UNIMPLEMENTED", message: "Unsupported transfer coding: \(codings.joined(separator: ", ")).")
      }
      guard codings.count == 1 else {
        throw HTTPRequestError(
          status: 501, grpcStatus: "UNIMPLEMENTED", message: "Unsupported transfer coding: \(codings.joined(separator: ", ")).")
      }
      return .chunked
    }
    let values = headers.filter { $0.name == "content-length" }.map(\.value)
    let lengths = values.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }.map { $0.trimmingSpaces() }
    guard let first = lengths.first else { return .none }
    guard lengths.allSatisfy({ $0 == first }), !first.isEmpty, first.count <= 18, first.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
      let length = Int(first)
    else { throw HTTPRequestError.badRequest("Invalid Content-Length.") }
    if length > maximumBodyBytes { throw HTTPRequestError.payloadTooLarge(limit: maximumBodyBytes) }
    return length == 0 ? .none : .length(length)
  }

  /// Parses the head's lines (request line first, no line ends).
  /// - Throws: `HTTPRequestError` (400, or 505 for another HTTP major version).
  package static func parse(_ lines: [[UInt8]]) throws -> HTTPRequestHead {
    guard let requestLine = lines.first else { throw HTTPRequestError.badRequest("Missing request line.") }
    let parts = requestLine.split(separator: 0x20, omittingEmptySubsequences: false)
    guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty }) else { throw HTTPRequestError.badRequest("Malformed request line.") }
    guard parts[0].allSatisfy(isTokenByte) else { throw HTTPRequestError.badRequest("Malformed request method.") }
    let method = String(decoding: parts[0], as: UTF8.self)
    let minorVersion = try parseVersion(parts[2])
    var target = parts[1]
    guard target.allSatisfy({ $0 > 0x20 && $0 != 0x7F }) else { throw HTTPRequestError.badRequest("Malformed request target.") }
    if target.first != UInt8(ascii: "/") {
      target = try originForm(ofAbsolute: target)
    }
    if let hash = target.firstIndex(of: UInt8(ascii: "#")) { target = target[..<hash] }
    let pathBytes: ArraySlice<UInt8>
    let queryBytes: ArraySlice<UInt8>
    if let mark = target.firstIndex(of: UInt8(ascii: "?")) {
      pathBytes = target[..<mark]
      queryBytes = target[(mark + 1)...]
    } else {
      pathBytes = target
      queryBytes = []
    }
    let path = try percentDecode(pathBytes, what: "path")
    var query: [(name: String, value: String)] = []
    for pair in queryBytes.split(separator: UInt8(ascii: "&")) {
      if let equals = pair.firstIndex(of: UInt8(ascii: "=")) {
        query.append((try percentDecode(pair[..<equals], what: "query"), try percentDecode(pair[(equals + 1)...], what: "query")))
      } else {
        query.append((try percentDecode(pair, what: "query"), ""))
      }
    }
    var headers: [(name: String, value: String)] = []
    for line in lines.dropFirst() {
      headers.append(try parseHeader(line))
    }
    return HTTPRequestHead(
      method: method, rawPath: String(decoding: pathBytes, as: UTF8.self), path: path,
      rawQuery: String(decoding: queryBytes, as: UTF8.self),
      query: query, minorVersion: minorVersion, headers: headers)
  }

  private static func parseVersion(_ bytes: ArraySlice<UInt8>) throws -> Int {
    let text = Array(bytes)
    guard text.count == 8, text[0..<5] == Array("HTTP/".utf8)[...], text[6] == UInt8(ascii: "."),
      (0x30...0x39).contains(text[5]), (0x30...0x39).contains(text[7])
    else { throw HTTPRequestError.badRequest("Malformed HTTP version.") }
    guard text[5] == UInt8(ascii: "1") else {
      throw HTTPRequestError(status: 505, grpcStatus: "UNIMPLEMENTED", message: "HTTP version not supported.")
    }
    return Int(text[7] - 0x30)
  }

  /// `http://host:port/p?q` → `/p?q` (absolute-form targets, as sent to proxies).
  private static func originForm(ofAbsolute target: ArraySlice<UInt8>) throws -> ArraySlice<UInt8> {
    let text = String(decoding: target, as: UTF8.self).lowercased()
    guard text.hasPrefix("http://") || text.hasPrefix("https://") else { throw HTTPRequestError.badRequest("Malformed request target.") }
    let afterScheme = target.index(target.startIndex, offsetBy: text.hasPrefix("http://") ? 7 : 8)
    let rest = target[afterScheme...]
    guard let slash = rest.firstIndex(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") }) else { return Array("/".utf8)[...] }
    return rest[slash] == UInt8(ascii: "/") ? rest[slash...] : Array("/".utf8)[...] + rest[slash...]
  }

  private static func parseHeader(_ line: [UInt8]) throws -> (name: String, value: String) {
    guard let first = line.first, first != 0x20, first != 0x09 else {
      throw HTTPRequestError.badRequest("Obsolete header line folding is not supported.")
    }
    guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > 0, line[..<colon].allSatisfy(isTokenByte) else {
      throw HTTPRequestError.badRequest("Malformed header field.")
    }
    var value = line[(colon + 1)...]
    while let byte = value.first, byte == 0x20 || byte == 0x09 { value = value.dropFirst() }
    while let byte = value.last, byte == 0x20 || byte == 0x09 { value = value.dropLast() }
    guard value.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }) else {
      throw HTTPRequestError.badRequest("Invalid character in header field value.")
    }
    return (String(decoding: line[..<colon], as: UTF8.self).lowercased(), String(decoding: value, as: UTF8.self))
  }

  /// RFC 9110 `tchar`.
  private static func isTokenByte(_ byte: UInt8) -> Bool {
    switch byte {
    case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
    default: return tokenPunctuation.contains(byte)
    }
  }

  private static let tokenPunctuation = Set("!#$%&'*+-.^_`|~".utf8)

  /// Decodes `%XX` escapes; `+` stays `+` (Firestore paths and values are not form-encoded).
  private static func percentDecode(_ bytes: ArraySlice<UInt8>, what: String) throws -> String {
    guard let text = PercentEncoding.decode(bytes, plusIsSpace: false) else {
      throw HTTPRequestError.badRequest("Invalid percent-encoding or UTF-8 in the \(what).")
    }
    return text
  }
}

extension Substring {
  /// Drops leading and trailing spaces and tabs.
  fileprivate func trimmingSpaces() -> String {
    var slice = self[...]
    while let c = slice.first, c == " " || c == "\t" { slice = slice.dropFirst() }
    while let c = slice.last, c == " " || c == "\t" { slice = slice.dropLast() }
    return String(slice)
  }
}
