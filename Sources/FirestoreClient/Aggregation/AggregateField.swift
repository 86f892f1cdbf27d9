import FirestoreWire

/// One aggregation to compute over a query's results.
///
/// ```swift
/// let snapshot = try await db.collection("orders")
///   .aggregate([.count(), .sum("total"), .average("total")])
///   .getAggregation()
/// let revenue = snapshot.get(.sum("total"))
/// ```
///
/// Note Firestore's rule: when any `sum` or `average` names a field, the whole
/// aggregation — `count` included — considers only documents that have that field, of any
/// type (`sum` and `average` then skip the values that are not numbers). Run a separate
/// ``QueryConvertible/count`` for a plain count.
public struct AggregateField: Sendable, Hashable {
  enum Kind: Sendable, Hashable {
    case count
    case sum(FieldPath)
    case average(FieldPath)
  }

  let kind: Kind
  let error: String?

  /// The number of matching documents.
  public static func count() -> AggregateField { AggregateField(kind: .count, error: nil) }

  /// The sum of a numeric field: an integer when every value is an integer, else a double.
  public static func sum(_ field: some FieldPathConvertible) -> AggregateField { make(field) { .sum($0) } }

  /// The mean of a numeric field, a double; `NSNull` when no document has a numeric value.
  public static func average(_ field: some FieldPathConvertible) -> AggregateField { make(field) { .average($0) } }

  private static func make(_ field: some FieldPathConvertible, _ kind: (FieldPath) -> Kind) -> AggregateField {
    do throws(FirestoreError) {
      let path = try field.fieldPath()
      // Firestore refuses it: "Aggregations are not supported for the property: __key__".
      if path.isDocumentID { throw .invalidArgument("sum and average cannot aggregate the document ID (__name__)") }
      return AggregateField(kind: kind(path), error: nil)
    } catch {
      return AggregateField(kind: kind(FieldPath([])), error: error.message)
    }
  }

  var wire: Aggregation.Kind {
    switch kind {
    case .count: return .count(upTo: nil)
    case .sum(let p): return .sum(p.canonicalString)
    case .average(let p): return .average(p.canonicalString)
    }
  }
}
