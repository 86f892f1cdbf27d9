import FirestoreWire

/// The results of an ``AggregateQuery``.
public struct AggregateQuerySnapshot: Sendable {
  /// The aggregate query that produced these results.
  public let query: AggregateQuery
  let values: [AggregateField: FirestoreWire.Value]
  /// When the aggregation was computed.
  public let readTime: Timestamp?

  /// The `count()` result, or `nil` when `count()` was not requested.
  public var count: Int? {
    guard case .integer(let n) = values[.count()] else { return nil }
    return Int(n)
  }

  /// One aggregation's result: `Int` or `Double` for sums, `Double` or `NSNull` for
  /// averages, `Int` for counts; `nil` when that aggregation was not requested.
  public func get(_ field: AggregateField) -> (any Sendable)? {
    guard let value = values[field] else { return nil }
    return UserDataWriter(firestore: query.query.firestore).convert(value)
  }
}
