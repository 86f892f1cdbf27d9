import FirestoreEngine
import FirestoreWire

/// Computes `:runAggregationQuery` results as the Firestore emulator does.
///
/// Verified on the emulator:
/// * `count` is an integer, capped by `upTo`;
/// * `sum` is an integer when every summed value is an integer and the exact total fits in
///   64 bits (a total that overflows becomes a double; `max + 1 - 5` stays an integer);
///   otherwise a double: integers are summed exactly, doubles with Kahan compensation
///   (`2^53 + 1.0 + 1.0` gives `2^53 + 2`), and the two parts added at the end; values that
///   are not numbers are skipped; no numbers at all gives integer 0;
/// * `avg` is that sum as a double divided by the number of numeric values, or `null`
///   when there are none;
/// * every `sum`/`avg` field acts as an extra implicit ordering of the base query, so a
///   document lacking any of those fields (whatever the field's type, `null` included) is
///   left out of every aggregation, `count` included, and `limit`/`offset` pick documents in
///   that order (see ``QueryEngine/execute(_:over:aggregationFields:)``).
///
/// The emulator walks documents in an order of its own when summing doubles, so sums that
/// cancel catastrophically (`1e100 + 1.0 - 1e100`) can differ from it; the mock sums in
/// result order.
enum AggregationEngine {
  /// The most aggregations one request may carry.
  static let maxAggregations = 5

  /// Validates and runs an aggregation over the base `query`'s candidate documents.
  static func run(
    _ aggregations: [Aggregation], query: StructuredQuery, over candidates: [Document]
  ) throws(MockError) -> [String: Value] {
    try validate(aggregations, query: query)
    let documents = try QueryEngine.execute(query, over: candidates, aggregationFields: fieldPaths(of: aggregations))
    return aggregate(aggregations, over: documents)
  }

  /// Throws the emulator's error for an invalid aggregation request (all messages verified):
  /// first the aggregation list, then the base query (see ``QueryValidator``), then the
  /// base query's projection.
  static func validate(_ aggregations: [Aggregation], query: StructuredQuery) throws(MockError) {
    if aggregations.isEmpty { throw .invalidArgument("Aggregations can not be empty.") }
    // [emulator-only] Six or more aggregations make the emulator fail with a bare 500.
    if aggregations.count > maxAggregations { throw .unknown() }
    var fields: [[String]] = []
    for aggregation in aggregations {
      switch aggregation.kind {
      case .count(let upTo):
        if let upTo, upTo < 0 {
          throw .invalidArgument("The `up_to` value in a COUNT aggregation must be greater than or equal to zero.")
        }
      case .sum(let path), .average(let path):
        let names = try FieldPathParser.parse(path)
        if FieldPathParser.isDocumentKey(names) {
          throw .invalidArgument("Aggregations are not supported for the property: __key__")
        }
        fields.append(names)
      }
    }
    var aliases: Set<String> = []
    for aggregation in aggregations where !aliases.insert(aggregation.alias).inserted {
      throw .invalidArgument("Aggregation aliases contain duplicate alias: \(aggregation.alias).")
    }
    try QueryValidator.validateRequest(query)
    if let select = query.select, !fields.isEmpty {
      let mask = select.map(QueryEngine.segments).filter { !FieldPathParser.isDocumentKey($0) }
      if mask.isEmpty {
        throw .invalidArgument("Aggregation over non-key properties is not supported for base query that only returns keys.")
      }
      for field in fields where !mask.contains(where: { field.starts(with: $0) }) {
        throw .invalidArgument(
          "The aggregation property \(FieldPathParser.display(field)) is not present in the base query's property mask.")
      }
      throw .invalidArgument("Cannot apply property masks when aggregation fields are present.")
    }
    try QueryValidator.validatePlan(query, aggregationFields: fieldPaths(of: aggregations))
  }

  /// The canonical paths of the `sum`/`avg` aggregations, in request order.
  static func fieldPaths(of aggregations: [Aggregation]) -> [String] {
    aggregations.compactMap { a in
      switch a.kind {
      case .count: return nil
      case .sum(let path), .average(let path): return path
      }
    }
  }

  /// The results by alias over `documents` (the base query's results). Documents lacking a
  /// `sum`/`avg` field are dropped first, which is a no-op for documents that came from
  /// ``run(_:query:over:)``.
  static func aggregate(_ aggregations: [Aggregation], over documents: [Document]) -> [String: Value] {
    let fields = fieldPaths(of: aggregations).map(QueryEngine.segments)
    let considered = documents.filter { d in fields.allSatisfy { FieldMap.get(d.fields, $0) != nil } }
    var results: [String: Value] = [:]
    for aggregation in aggregations {
      switch aggregation.kind {
      case .count(let upTo):
        let n = Int64(considered.count)
        results[aggregation.alias] = .integer(upTo.map { min(n, $0) } ?? n)
      case .sum(let path):
        results[aggregation.alias] = total(path, considered).sum
      case .average(let path):
        let t = total(path, considered)
        results[aggregation.alias] = t.count == 0 ? .null : .double(t.doubleSum / Double(t.count))
      }
    }
    return results
  }

  /// The sum of the numeric values at `path`, as reported and as a double, and their count.
  private static func total(_ path: String, _ documents: [Document]) -> (sum: Value, doubleSum: Double, count: Int) {
    let names = QueryEngine.segments(path)
    var integers: Int128 = 0
    var doubles = KahanSum()
    var sawDouble = false
    var count = 0
    for document in documents {
      switch FieldMap.get(document.fields, names) {
      case .integer(let i)?:
        integers += Int128(i)
        count += 1
      case .double(let d)?:
        doubles.add(d)
        sawDouble = true
        count += 1
      default:
        break
      }
    }
    let doubleSum = doubles.value + Double(integers)
    if !sawDouble, let exact = Int64(exactly: integers) { return (.integer(exact), doubleSum, count) }
    return (.double(doubleSum), doubleSum, count)
  }
}

/// Compensated summation as Java's `DoubleSummaryStatistics` does it, including its fallback
/// to the plain sum when compensation turns an infinite total into `NaN`.
private struct KahanSum {
  private var sum = 0.0
  private var compensation = 0.0
  private var simpleSum = 0.0

  mutating func add(_ x: Double) {
    simpleSum += x
    let y = x - compensation
    let t = sum + y
    compensation = (t - sum) - y
    sum = t
  }

  var value: Double {
    let v = sum - compensation
    return v.isNaN && simpleSum.isInfinite ? simpleSum : v
  }
}
