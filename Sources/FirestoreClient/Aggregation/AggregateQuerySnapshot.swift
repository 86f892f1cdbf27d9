import FirestoreWire
import Foundation

/// The results of an ``AggregateQuery``.
public struct AggregateQuerySnapshot: Sendable, Equatable {
  /// The aggregate query that produced these results.
  public let query: AggregateQuery
  let values: [AggregateField: FirestoreWire.Value]
  /// When the aggregation was computed.
  public let readTime: Timestamp?

  /// Whether two results are the same, as the Apple SDK compares them: equal queries and
  /// values; when they were computed is no part of it.
  public static func == (lhs: AggregateQuerySnapshot, rhs: AggregateQuerySnapshot) -> Bool {
    lhs.query == rhs.query && lhs.values == rhs.values
  }

  /// The number of documents that match, as the Apple SDK gives it: an `NSNumber`.
  ///
  /// ```swift
  /// let snapshot = try await db.collection("cities").count.getAggregation(source: .server)
  /// let n = snapshot.count.intValue
  /// ```
  ///
  /// Reading it from an aggregation that did not ask for ``AggregateField/count()`` is a
  /// mistake the Apple SDK answers with an exception; here the value is `0` and the mistake
  /// is reported through ``FirestoreSettings/logHandler``.
  public var count: NSNumber {
    guard case .integer(let n) = values[.count()] else {
      query.query.firestore.configuration.log(
        "AggregateQuerySnapshot.count read, but the aggregation did not request AggregateField.count(); it reads as 0")
      return NSNumber(value: 0)
    }
    return NSNumber(value: n)
  }

  /// One aggregation's result as the Apple SDK gives it: an `NSNumber` (an integer or a
  /// double for sums, a double for averages, an integer for counts) or `NSNull` (the average
  /// of no numbers); `nil` when that aggregation was not requested.
  ///
  /// ```swift
  /// let total = snapshot.get(.sum("population")) as? Int64
  /// ```
  public func get(_ field: AggregateField) -> (any Sendable)? {
    guard let value = values[field] else { return nil }
    return UserDataWriter(firestore: query.query.firestore).convert(value)
  }

  /// One aggregation's result in Firestore's own value type, exact to the wire (an
  /// integer sum stays `.integer`, a whole double `.double`); `nil` when not requested.
  public func value(for field: AggregateField) -> FirestoreWire.Value? {
    values[field]
  }
}
