import FirestoreWire

/// What a pending ``FieldValue/serverTimestamp()`` looks like to a reader until the server
/// sets the time. The placeholder itself is ``FirestoreWire/Value/pendingServerTimestamp(localWriteTime:previous:)``,
/// where the order of values also reads it.
enum ServerTimestampSentinel {
  /// `value` with every placeholder in it replaced as `behavior` says.
  static func resolve(_ value: Value, _ behavior: ServerTimestampBehavior) -> Value {
    if let (time, previous) = value.pendingServerTimestamp {
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
    if let x = a.pendingServerTimestamp, let y = b.pendingServerTimestamp { return x.localWriteTime == y.localWriteTime }
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
    if value.pendingServerTimestamp != nil { return true }
    switch value {
    case .map(let map): return map.values.contains(where: contains)
    case .array(let array): return array.contains(where: contains)
    default: return false
    }
  }
}
