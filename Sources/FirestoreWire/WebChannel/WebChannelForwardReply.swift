/// The reply to a WebChannel forward POST: one frame holding
/// `[backChannelPresent, lastArrayId, outstandingBytes]`, e.g. `7\n[1,5,7]`.
///
/// The client uses ``backChannelPresent`` to decide whether to (re)open a back channel and
/// ``lastArrayID`` to know how far the server has got. The emulator always sent 7 as the
/// third element; its meaning (bytes still queued) is informational only.
public struct WebChannelForwardReply: Sendable, Equatable {
  /// `true` (wire `1`) when the server has a back channel open for the session.
  public var backChannelPresent: Bool
  /// The id of the last array the server has sent (or queued) on the back channel.
  public var lastArrayID: Int
  /// The third element, as sent (outstanding bytes; 7 on the emulator).
  public var outstandingBytes: Int

  /// Creates a reply.
  public init(backChannelPresent: Bool, lastArrayID: Int, outstandingBytes: Int = 7) {
    self.backChannelPresent = backChannelPresent
    self.lastArrayID = lastArrayID
    self.outstandingBytes = outstandingBytes
  }

  /// Decodes the reply from its frame's JSON.
  ///
  /// - Throws: ``WireFormatError`` unless `json` is an array of at least three integers
  ///   whose first is 0 or 1 (extra elements are ignored, for forward compatibility).
  public init(json: JSONValue) throws {
    guard let list = json.arrayValue, list.count >= 3,
      let present = WebChannelMessage.integer(list[0]), present == 0 || present == 1,
      let last = WebChannelMessage.integer(list[1]), let outstanding = WebChannelMessage.integer(list[2])
    else {
      throw WireFormatError("a WebChannel forward reply must be [0|1, lastArrayId, outstandingBytes]")
    }
    self.init(backChannelPresent: present == 1, lastArrayID: last, outstandingBytes: outstanding)
  }

  /// The reply's JSON, to be framed with `WebChannelFrameWriter.frame(_:)`.
  public var json: JSONValue {
    .array([.integer(backChannelPresent ? 1 : 0), .integer(Int64(lastArrayID)), .integer(Int64(outstandingBytes))])
  }
}
