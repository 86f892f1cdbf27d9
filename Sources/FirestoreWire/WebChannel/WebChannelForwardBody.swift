/// The `application/x-www-form-urlencoded` body of a WebChannel handshake or forward POST.
///
/// Firestore uses the channel's raw-JSON mode: a body carrying K messages whose first has
/// map id M is
///
///     [headers=<enc "Name:Value\r\n…">&]count=K&ofs=M&req0___data__=<enc JSON>&…&req{K-1}___data__=<enc JSON>
///
/// (`req<i>` then `___data__`: three underscores). Message `i` has map id `M + i`; the
/// server de-duplicates and re-orders by map id. With no messages the body is `count=0`
/// and has no `ofs`. The optional `headers=` prefix (handshake only; later ones are
/// ignored by the server) carries HTTP headers such as `Authorization` for the session.
///
/// Values are percent-encoded as `encodeURIComponent` does, so `+`, `/` and `=` in base64 resume
/// tokens arrive intact; a raw `+` would decode as a space and wedge the session.
public enum WebChannelForwardBody {
  /// The largest `count` accepted by ``decode(_:)``; the web client sends at most 1000.
  public static let maximumCount = 1000

  /// Encodes `messages` as a forward body.
  ///
  /// - Parameters:
  ///   - messages: the JSON messages (ListenRequests), in map-id order; may be empty.
  ///   - offset: the map id of the first message (ignored, and no `ofs` written, when
  ///     `messages` is empty).
  ///   - headers: HTTP headers to fix for the session, written as the `headers=` prefix;
  ///     only meaningful on the handshake. Names and values must not contain CR or LF.
  public static func encode(messages: [JSONValue], offset: Int, headers: [(name: String, value: String)] = []) -> String {
    var parts: [String] = []
    if !headers.isEmpty {
      parts.append("headers=" + PercentEncoding.encode(headers.map { "\($0.name):\($0.value)\r\n" }.joined()))
    }
    parts.append("count=\(messages.count)")
    if !messages.isEmpty { parts.append("ofs=\(offset)") }
    for (i, message) in messages.enumerated() {
      parts.append("req\(i)___data__=" + PercentEncoding.encode(JSONWriter.string(message)))
    }
    return parts.joined(separator: "&")
  }

  /// Decodes a forward body into its offset and messages.
  ///
  /// Accepts `+` or `%20` for spaces and either hex case. An empty body reads as no
  /// messages. Without messages the offset is `0` unless an `ofs` is present.
  ///
  /// - Throws: ``WireFormatError`` when `count` is missing (in a non-empty body) or not a
  ///   non-negative integer up to ``maximumCount``, `ofs` is missing or negative while
  ///   `count > 0`, a `req<i>___data__` for `i < count` is missing or repeated, a `req…`
  ///   key is not of that form (key/value maps are not supported) or has `i >= count`, a
  ///   value is badly escaped, or a message is not valid JSON. Other keys (e.g. `headers`)
  ///   are ignored here; see ``headers(in:)``.
  public static func decode(_ body: String) throws -> (offset: Int, messages: [JSONValue]) {
    let pairs = try FormURLEncoding.pairs(body)
    if pairs.isEmpty { return (0, []) }
    func single(_ key: String) throws -> String? {
      let values = pairs.filter { $0.0 == key }
      guard values.count <= 1 else { throw WireFormatError("forward body repeats \"\(key)\"") }
      return values.first?.1
    }
    guard let countText = try single("count") else { throw WireFormatError("forward body has no \"count\"") }
    guard let count = Int(countText), (0...maximumCount).contains(count) else {
      throw WireFormatError("forward body count \"\(countText.prefix(20))\" is not an integer in 0...\(maximumCount)")
    }
    var offset = 0
    if let ofsText = try single("ofs") {
      guard let value = Int(ofsText), value >= 0 else {
        throw WireFormatError("forward body ofs \"\(ofsText.prefix(20))\" is not a non-negative integer")
      }
      offset = value
    } else if count > 0 {
      throw WireFormatError("forward body has count=\(count) but no \"ofs\"")
    }
    var messages = [JSONValue?](repeating: nil, count: count)
    for (key, value) in pairs where key.hasPrefix("req") {
      guard key.hasSuffix("___data__"), let index = Int(key.dropFirst(3).dropLast(9)), index >= 0 else {
        throw WireFormatError("unsupported forward body key \"\(key.prefix(40))\" (only req<i>___data__ is supported)")
      }
      guard index < count else { throw WireFormatError("forward body key \(key) is beyond count=\(count)") }
      guard messages[index] == nil else { throw WireFormatError("forward body repeats \(key)") }
      do {
        messages[index] = try JSONParser.parse(value)
      } catch let error as WireFormatError {
        throw WireFormatError("forward body \(key) is not valid JSON: \(error.message)")
      }
    }
    if let missing = messages.firstIndex(where: { $0 == nil }) {
      throw WireFormatError("forward body has count=\(count) but no req\(missing)___data__")
    }
    return (offset, messages.map { $0! })
  }

  /// The headers carried in a body's `headers=` prefix (`Name:Value\r\n…`), in order.
  ///
  /// Lines may end in CRLF or LF; leading spaces of a value are dropped; blank lines are
  /// skipped. A body without `headers` gives `[]`.
  ///
  /// - Throws: ``WireFormatError`` for bad escapes or a line without `:`.
  public static func headers(in body: String) throws -> [(name: String, value: String)] {
    guard let block = try FormURLEncoding.pairs(body).first(where: { $0.0 == "headers" })?.1 else { return [] }
    return try block.split(omittingEmptySubsequences: true) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }.map { line in
      guard let colon = line.firstIndex(of: ":") else {
        throw WireFormatError("header line \"\(line.prefix(40))\" has no ':'")
      }
      return (String(line[..<colon]), String(line[line.index(after: colon)...].drop { $0 == " " }))
    }
  }
}
