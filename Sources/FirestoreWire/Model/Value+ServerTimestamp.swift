/// A pending server timestamp, as a client holds it in a local document until the server
/// sets the time: a map under reserved keys (which stored data cannot contain, as Firestore
/// rejects `__…__` field names) carrying the local write time and the previous value. It
/// never reaches the server.
extension Value {
  /// The tag of a pending server timestamp under ``typeKey``.
  static let serverTimestampTag = "server_timestamp"
  private static let localWriteTimeKey = "__local_write_time__"
  private static let previousValueKey = "__previous_value__"

  /// The placeholder of a server timestamp written at `localWriteTime` over `previous`.
  public static func pendingServerTimestamp(localWriteTime: Timestamp, previous: Value?) -> Value {
    // A placeholder over a placeholder keeps the value from before the first one.
    let prior = previous.flatMap { $0.pendingServerTimestamp.map(\.previous) ?? $0 }
    var map: [String: Value] = [typeKey: .string(serverTimestampTag), localWriteTimeKey: .timestamp(localWriteTime)]
    if let prior { map[previousValueKey] = prior }
    return .map(map)
  }

  /// The local write time and previous value of a pending server timestamp, or `nil` for
  /// any other value.
  public var pendingServerTimestamp: (localWriteTime: Timestamp, previous: Value?)? {
    guard case .map(let map) = self, map[Self.typeKey] == .string(Self.serverTimestampTag),
      case .timestamp(let time)? = map[Self.localWriteTimeKey]
    else { return nil }
    return (time, map[Self.previousValueKey])
  }
}
