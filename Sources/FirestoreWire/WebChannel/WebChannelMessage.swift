/// One array delivered on a WebChannel back channel (or in the handshake reply).
///
/// Each back-channel frame is a JSON array of arrays `[[arrayId, payload], …]`, where
/// `arrayId` is a non-negative integer rising across the whole session and `payload` is
/// either a control list (`["c", …]`, `["noop"]`, `["stop"]`, `["close"]`) or a list whose
/// first element is the application message (for Firestore, a `ListenResponse` object).
///
/// Parsing follows the closure-library client: a payload whose first element is one of the
/// control strings is that control message; any other non-empty list is data and its first
/// element is the message (extra elements are ignored, as the JavaScript SDK ignores them).
public enum WebChannelMessage: Sendable, Equatable {
  /// `["c", SID, hostPrefix, version, serverVersion, keepAliveMs]`: the channel was
  /// created (always array id 0 of the handshake reply).
  ///
  /// - `sessionID`: the SID, base64 that may contain `= + / _ -`; percent-encode it in URLs.
  /// - `hostPrefix`: always `""` on Firestore; `null` or absent reads as `""`.
  /// - `version`: the negotiated channel version (8).
  /// - `serverVersion`: the server's version (12 on the emulator).
  /// - `keepAliveMilliseconds`: the server's keep-alive (30000); absent when the handshake
  ///   sent no `CVER`. A client should time a silent back channel out after 1.5× this.
  case created(sessionID: String, hostPrefix: String, version: Int?, serverVersion: Int?, keepAliveMilliseconds: Int?)
  /// `["noop"]`: filler/keep-alive. Ignore it, but it still advances the acknowledged id.
  case noop
  /// `["stop"]`: the server abandoned the channel with an error.
  case stop
  /// `["close"]`: the server closed the channel normally.
  case close
  /// `[message]`: an application message, e.g. a `ListenResponse` object or an
  /// `{"error": …}` object (production may wrap the error in one more array).
  case data(JSONValue)

  /// One numbered array of a back-channel frame: `[id, payload]`.
  public struct Entry: Sendable, Equatable {
    /// The array id; the client acknowledges the highest id it processed as `AID`.
    public var id: Int
    /// The decoded payload.
    public var message: WebChannelMessage

    /// Creates an entry.
    public init(id: Int, message: WebChannelMessage) {
      self.id = id
      self.message = message
    }
  }

  /// Decodes one frame's JSON (as returned by ``WebChannelFrameParser``) into its entries.
  ///
  /// - Throws: ``WireFormatError`` when the frame is not an array of `[id, payload]`
  ///   arrays, an id is not a non-negative integer, a payload is not a non-empty array, or
  ///   a `c` message lacks a string SID.
  public static func parse(frame json: JSONValue) throws -> [Entry] {
    guard let arrays = json.arrayValue else {
      throw WireFormatError("a WebChannel frame must be an array of arrays, got \(json.kindName)")
    }
    return try arrays.enumerated().map { index, element in
      guard let pair = element.arrayValue, pair.count == 2 else {
        throw WireFormatError("WebChannel array \(index) must be [id, payload]")
      }
      guard let id = integer(pair[0]), id >= 0 else {
        throw WireFormatError("WebChannel array \(index) has an invalid id (\(pair[0].kindName))")
      }
      return Entry(id: id, message: try parse(payload: pair[1], id: id))
    }
  }

  /// Decodes one payload (the second element of `[id, payload]`).
  ///
  /// - Throws: ``WireFormatError`` for a payload that is not a non-empty array or a
  ///   malformed `c` message.
  public static func parse(payload: JSONValue) throws -> WebChannelMessage {
    try parse(payload: payload, id: nil)
  }

  private static func parse(payload: JSONValue, id: Int?) throws -> WebChannelMessage {
    let label = id.map { "WebChannel array \($0)" } ?? "WebChannel payload"
    guard let list = payload.arrayValue, let first = list.first else {
      throw WireFormatError("\(label) must be a non-empty array, got \(payload.kindName)")
    }
    switch first.stringValue {
    case "noop": return .noop
    case "stop": return .stop
    case "close": return .close
    case "c":
      guard list.count >= 2, let sid = list[1].stringValue else {
        throw WireFormatError("\(label): the \"c\" message needs a string session id")
      }
      func optionalInt(_ i: Int) throws -> Int? {
        guard i < list.count, list[i] != .null else { return nil }
        guard let value = integer(list[i]) else {
          throw WireFormatError("\(label): element \(i) of the \"c\" message must be an integer")
        }
        return value
      }
      let hostPrefix = list.count > 2 ? list[2].stringValue ?? "" : ""
      return .created(
        sessionID: sid, hostPrefix: hostPrefix, version: try optionalInt(3), serverVersion: try optionalInt(4),
        keepAliveMilliseconds: try optionalInt(5))
    default:
      return .data(first)
    }
  }

  /// The payload JSON of this message, the inverse of ``parse(payload:)``.
  ///
  /// A `created` message omits trailing `nil` numbers (as the server omits the keep-alive
  /// when no `CVER` was sent) and writes `null` for a `nil` before a non-`nil` one.
  public var payload: JSONValue {
    switch self {
    case .noop: return .array([.string("noop")])
    case .stop: return .array([.string("stop")])
    case .close: return .array([.string("close")])
    case .data(let message): return .array([message])
    case .created(let sid, let hostPrefix, let version, let serverVersion, let keepAlive):
      var list: [JSONValue] = [.string("c"), .string(sid), .string(hostPrefix)]
      let numbers = [version, serverVersion, keepAlive]
      let count = numbers.lastIndex { $0 != nil }.map { $0 + 1 } ?? 0
      list += numbers.prefix(count).map { $0.map { .integer(Int64($0)) } ?? .null }
      return .array(list)
    }
  }

  /// The frame JSON `[[id, payload], …]` for `entries`, the inverse of ``parse(frame:)``.
  public static func json(_ entries: [Entry]) -> JSONValue {
    .array(entries.map { .array([.integer(Int64($0.id)), $0.message.payload]) })
  }

  /// An integer JSON number (no fraction or exponent) that fits `Int`, else `nil`.
  static func integer(_ json: JSONValue) -> Int? {
    guard case .number(let text) = json else { return nil }
    return Int(text)
  }
}
