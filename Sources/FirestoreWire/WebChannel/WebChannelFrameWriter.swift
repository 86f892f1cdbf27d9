/// Writes WebChannel's length-prefixed response framing: the inverse of
/// ``WebChannelFrameParser``, for servers (the mock) and tests.
///
/// A frame is the decimal count of **UTF-16 code units** of the JSON text, `\n`, then the
/// JSON text as UTF-8, with nothing after it. Frames are concatenated directly.
public enum WebChannelFrameWriter {
  /// One frame holding the compact JSON text of `json`.
  ///
  /// The length counts UTF-16 units (a character outside the BMP counts 2), exactly like
  /// the server's JavaScript-compatible `string.length`. Non-ASCII is written as raw UTF-8.
  public static func frame(_ json: JSONValue) -> [UInt8] {
    frame(jsonBytes: JSONWriter.bytes(json))
  }

  /// One frame around already-serialized JSON text.
  ///
  /// - Parameter jsonBytes: UTF-8 JSON text. It is not validated; invalid UTF-8 would be
  ///   counted as U+FFFD replacement characters, producing a frame a parser rejects.
  public static func frame(jsonBytes: [UInt8]) -> [UInt8] {
    let units = String(decoding: jsonBytes, as: UTF8.self).utf16.count
    var out = Array(String(units).utf8)
    out.reserveCapacity(out.count + 1 + jsonBytes.count)
    out.append(UInt8(ascii: "\n"))
    out.append(contentsOf: jsonBytes)
    return out
  }

  /// One back-channel (or handshake) frame carrying `entries` as `[[id, payload], …]`.
  ///
  /// The server batches whatever arrays are ready into one frame; an empty `entries` gives
  /// the frame `[]`, which a client accepts and ignores.
  public static func frame(_ entries: [WebChannelMessage.Entry]) -> [UInt8] {
    frame(WebChannelMessage.json(entries))
  }
}
