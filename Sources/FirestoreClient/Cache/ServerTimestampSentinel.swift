import FirestoreWire

/// How a pending ``FieldValue/serverTimestamp()`` is held in a local document until the
/// server sets the time: a map under reserved keys (which user data cannot contain, as
/// Firestore rejects `__…__` field names) carrying the local write time and the previous value.
enum ServerTimestampSentinel {
  private static let typeKey = Value.typeKey
  private static let typeValue = "server_timestamp"
  private static let timeKey = "__local_write_time__"
  private static let previousKey = "__previous_value__"

  /// The placeholder for a timestamp written at `localWriteTime` over `previous`.
  static func make(localWriteTime: Timestamp, previous: Value?) -> Value {
    // A placeholder over a placeholder keeps the value from before the first one.
    let prior = previous.flatMap { decode($0).map(\.previous) ?? $0 }
    var map: [String: Value] = [typeKey: .string(typeValue), timeKey: .timestamp(localWriteTime)]
    if let prior { map[previousKey] = prior }
    return .map(map)
  }

  /// The local write time and previous value of a placeholder, or `nil` for any other value.
  static func decode(_ value: Value) -> (localWriteTime: Timestamp, previous: Value?)? {
    guard case .map(let map) = value, map[typeKey] == .string(typeValue), case .timestamp(let time)? = map[timeKey] else {
      return nil
    }
    return (time, map[previousKey])
  }

  /// `value` with every placeholder in it replaced as `behavior` says.
  static func resolve(_ value: Value, _ behavior: ServerTimestampBehavior) -> Value {
    if let (time, previous) = decode(value) {
      switch behavior {
      case .none: return .null
      case .estimate: return .timestamp(time)
      case .previous: return previous ?? .null
      }
    }
    switch value {
    case .map(let map): return .map(resolve(map, behavior))
    case .array(let array): return .array(array.map { resolve($0, behavior) })
    default: return value
    }
  }

  /// `fields` with every placeholder replaced as `behavior` says.
  static func resolve(_ fields: [String: Value], _ behavior: ServerTimestampBehavior) -> [String: Value] {
    fields.mapValues { resolve($0, behavior) }
  }

  /// Whether two documents' data is the same to a listener: equal, but for placeholders,
  /// which are the same write when their local write times are (the value from before
  /// them may have changed underneath), as the Apple SDK compares them.
  static func sameData(_ a: [String: Value], _ b: [String: Value]) -> Bool {
    a == b || (a.count == b.count && a.allSatisfy { key, value in b[key].map { same(value, $0) } == true })
  }

  private static func same(_ a: Value, _ b: Value) -> Bool {
    if let x = decode(a), let y = decode(b) { return x.localWriteTime == y.localWriteTime }
    switch (a, b) {
    case (.map(let x), .map(let y)): return sameData(x, y)
    case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
    default: return a == b
    }
  }

  /// Whether `fields` hold a placeholder anywhere (most documents do not: no copy is made).
  static func contains(_ fields: [String: Value]) -> Bool {
    fields.values.contains(where: contains)
  }

  private static func contains(_ value: Value) -> Bool {
    if decode(value) != nil { return true }
    switch value {
    case .map(let map): return map.values.contains(where: contains)
    case .array(let array): return array.contains(where: contains)
    default: return false
    }
  }
}
