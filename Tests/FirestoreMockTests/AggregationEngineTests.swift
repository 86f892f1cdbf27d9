import FirestoreWire
import Testing

@testable import FirestoreMock

extension QueryEngineTests {
  /// Expected results recorded from the emulator with the same documents.
  @Suite("Aggregations")
  struct Aggregations {
    static let count = Aggregation(alias: "n", kind: .count(upTo: nil))
    static func sum(_ path: String, _ alias: String = "s") -> Aggregation { Aggregation(alias: alias, kind: .sum(path)) }
    static func avg(_ path: String, _ alias: String = "a") -> Aggregation { Aggregation(alias: alias, kind: .average(path)) }

    static func collection(_ values: [Value?]) -> [Document] {
      values.enumerated().map { i, v in QueryFixtures.document("ag/d\(i)", v.map { ["x": $0] } ?? ["y": .integer(1)]) }
    }

    static func run(
      _ aggregations: [Aggregation], _ documents: [Document], _ query: StructuredQuery = QueryFixtures.query()
    ) throws(MockError) -> [String: Value] {
      try AggregationEngine.run(aggregations, query: query, over: documents)
    }

    @Test("count, sum and avg; a sum/avg field limits every aggregation to documents having it")
    func fieldPresence() throws {
      // nil = a document with only `y`.
      let docs = Self.collection([.integer(1), .integer(2), .string("str"), .null, nil, .boolean(true)])
      #expect(try Self.run([Self.count, Self.sum("x"), Self.avg("x")], docs) == ["n": .integer(5), "s": .integer(3), "a": .double(1.5)])
      #expect(try Self.run([Self.count], docs) == ["n": .integer(6)])
      #expect(try Self.run([Self.count, Self.sum("y")], docs) == ["n": .integer(1), "s": .integer(1)])
      #expect(
        try Self.run([Self.count, Self.sum("x"), Self.sum("y", "s2")], docs) == ["n": .integer(0), "s": .integer(0), "s2": .integer(0)])
      #expect(try Self.run([Aggregation(alias: "n", kind: .count(upTo: 2))], docs) == ["n": .integer(2)])
      #expect(try Self.run([Aggregation(alias: "n", kind: .count(upTo: 0))], docs) == ["n": .integer(0)])
      #expect(try Self.run([Aggregation(alias: "n", kind: .count(upTo: 1)), Self.sum("x")], docs) == ["n": .integer(1), "s": .integer(3)])
      #expect(AggregationEngine.aggregate([Self.count, Self.avg("x")], over: docs) == ["n": .integer(5), "a": .double(1.5)])
    }

    @Test("empty and non-numeric inputs")
    func empty() throws {
      #expect(try Self.run([Self.count, Self.sum("x"), Self.avg("x")], []) == ["n": .integer(0), "s": .integer(0), "a": .null])
      #expect(
        try Self.run([Self.count, Self.sum("x"), Self.avg("x")], Self.collection([.string("a")])) == [
          "n": .integer(1), "s": .integer(0), "a": .null,
        ])
    }

    @Test("integer sums are exact and become doubles only when the total overflows")
    func integerSums() throws {
      let p53 = Int64(1) << 53
      #expect(
        try Self.run([Self.sum("x"), Self.avg("x")], Self.collection([.integer(.max), .integer(1)])) == [
          "s": .double(9.223372036854776e18), "a": .double(4.611686018427388e18),
        ])
      #expect(
        try Self.run([Self.sum("x"), Self.avg("x")], Self.collection([.integer(.min), .integer(-1)])) == [
          "s": .double(-9.223372036854776e18), "a": .double(-4.611686018427388e18),
        ])
      // Back in range at the end: still an integer.
      #expect(
        try Self.run([Self.sum("x"), Self.avg("x")], Self.collection([.integer(.max), .integer(1), .integer(-5)])) == [
          "s": .integer(9_223_372_036_854_775_803), "a": .double(3.0744573456182584e18),
        ])
      #expect(
        try Self.run([Self.sum("x"), Self.avg("x")], Self.collection([.integer(p53 + 1), .integer(p53 + 1)])) == [
          "s": .integer(18_014_398_509_481_986), "a": .double(9_007_199_254_740_992),
        ])
      #expect(
        try Self.run([Self.sum("x"), Self.avg("x")], Self.collection([.integer(p53), .integer(1), .integer(1)])) == [
          "s": .integer(9_007_199_254_740_994), "a": .double(3_002_399_751_580_331.5),
        ])
    }

    @Test("double sums: compensated, integers summed apart, NaN and infinities")
    func doubleSums() throws {
      let p53 = Int64(1) << 53
      let big = Double(p53)
      func sumAvg(_ values: [Value]) throws -> [String: Value] { try Self.run([Self.sum("x"), Self.avg("x")], Self.collection(values)) }
      // A plain running sum would give 2^53 here.
      #expect(
        try sumAvg([.double(big), .double(1), .double(1)]) == ["s": .double(9_007_199_254_740_994), "a": .double(3_002_399_751_580_331.5)])
      #expect(
        try sumAvg([.double(0.5), .integer(p53), .integer(1), .integer(1)]) == [
          "s": .double(9_007_199_254_740_994), "a": .double(2_251_799_813_685_248.5),
        ])
      #expect(
        try sumAvg([.integer(p53), .integer(1), .double(0.5)]) == [
          "s": .double(9_007_199_254_740_992), "a": .double(3_002_399_751_580_330.5),
        ])
      #expect(try sumAvg([.double(1e100), .integer(1), .double(-1e100)]) == ["s": .double(1), "a": .double(1.0 / 3)])
      #expect(try sumAvg([.double(0.1), .double(0.2), .double(0.3)]) == ["s": .double(0.6), "a": .double(0.19999999999999998)])
      #expect(try sumAvg([.double(1), .double(2)]) == ["s": .double(3), "a": .double(1.5)])
      #expect(try sumAvg([.integer(1), .double(1.5), .double(.nan)]) == ["s": .double(.nan), "a": .double(.nan)])
      #expect(try sumAvg([.integer(1), .double(.infinity), .double(-.infinity)]) == ["s": .double(.nan), "a": .double(.nan)])
      #expect(try sumAvg([.double(.infinity), .double(1), .integer(2)]) == ["s": .double(.infinity), "a": .double(.infinity)])
      #expect(try sumAvg([.double(1), .double(-.infinity), .double(1)]) == ["s": .double(-.infinity), "a": .double(-.infinity)])
      #expect(
        try sumAvg([.integer(.max), .integer(.max), .double(0.5), .integer(.min + 1)]) == [
          "s": .double(9.223372036854776e18), "a": .double(2.305843009213694e18),
        ])
    }

    @Test("sum/avg fields order the base query, so limit and offset pick by them")
    func implicitOrder() throws {
      let docs = [
        QueryFixtures.document("ago/a", ["y": .integer(1)]),
        QueryFixtures.document("ago/b", ["x": .integer(100), "y": .integer(2), "z": .integer(1)]),
        QueryFixtures.document("ago/c", ["x": .integer(10), "y": .integer(3), "z": .integer(1)]),
        QueryFixtures.document("ago/d", ["x": .integer(5), "y": .integer(0), "z": .integer(1)]),
      ]
      let n = Self.count
      #expect(try Self.run([n, Self.sum("x")], docs, QueryFixtures.query(limit: 1)) == ["n": .integer(1), "s": .integer(5)])
      #expect(try Self.run([n, Self.sum("x")], docs, QueryFixtures.query(limit: 2)) == ["n": .integer(2), "s": .integer(15)])
      #expect(try Self.run([n, Self.sum("x")], docs, QueryFixtures.query(offset: 1)) == ["n": .integer(2), "s": .integer(110)])
      #expect(
        try Self.run([n, Self.sum("x")], docs, QueryFixtures.query(orderBy: [QueryFixtures.asc("y")], limit: 1)) == [
          "n": .integer(1), "s": .integer(5),
        ])
      #expect(
        try Self.run([n, Self.sum("x")], docs, QueryFixtures.query(orderBy: [QueryFixtures.desc("y")], limit: 1)) == [
          "n": .integer(1), "s": .integer(10),
        ])
      let afterY1 = QueryFixtures.query(orderBy: [QueryFixtures.asc("y")], startAt: .init(values: [.integer(1)], before: false))
      #expect(try Self.run([n, Self.sum("x")], docs, afterY1) == ["n": .integer(2), "s": .integer(110)])

      let pq = [
        QueryFixtures.document("agp/p", ["x": .integer(1), "w": .integer(2), "a": .integer(2), "y": .integer(1)]),
        QueryFixtures.document("agp/q", ["x": .integer(2), "w": .integer(1), "a": .integer(1), "y": .integer(1)]),
      ]
      // Inequality fields come first, then sum/avg fields sorted by path, in the last explicit direction.
      let wPositive = QueryFixtures.query(.field(path: "w", op: .greaterThan, value: .integer(0)), limit: 1)
      #expect(try Self.run([Self.sum("x")], pq, wPositive) == ["s": .integer(2)])
      let xPositive = QueryFixtures.query(.field(path: "x", op: .greaterThan, value: .integer(0)), limit: 1)
      #expect(try Self.run([Self.sum("a")], pq, xPositive) == ["s": .integer(2)])
      #expect(try Self.run([Self.sum("x")], pq, QueryFixtures.query(orderBy: [QueryFixtures.desc("y")], limit: 1)) == ["s": .integer(2)])
      #expect(
        try Self.run([Self.sum("x"), Self.sum("w", "s2")], pq, QueryFixtures.query(limit: 1)) == ["s": .integer(2), "s2": .integer(1)])
      #expect(
        try Self.run([Self.sum("x"), Self.sum("a", "s2")], pq, QueryFixtures.query(limit: 1)) == ["s": .integer(2), "s2": .integer(1)])
      #expect(try Self.run([Self.sum("x"), Self.avg("x")], pq, QueryFixtures.query(limit: 1)) == ["s": .integer(1), "a": .double(1)])
      let order = QueryEngine.normalizedOrder(
        QueryFixtures.query(.field(path: "z", op: .greaterThan, value: .integer(0))), aggregationFields: ["x", "`a-b`", "z"])
      #expect(order == [QueryFixtures.asc("z"), QueryFixtures.asc("`a-b`"), QueryFixtures.asc("x"), QueryFixtures.asc("__name__")])
    }

    @Test("validation messages")
    func validation() {
      func message(_ aggregations: [Aggregation], _ query: StructuredQuery = QueryFixtures.query()) -> String? {
        do {
          _ = try Self.run(aggregations, [], query)
          return nil
        } catch {
          return error.message
        }
      }
      #expect(message([]) == "Aggregations can not be empty.")
      #expect(message([Self.count, Aggregation(alias: "n", kind: .count(upTo: nil))]) == "Aggregation aliases contain duplicate alias: n.")
      #expect(
        message([Aggregation(alias: "n", kind: .count(upTo: -1))])
          == "The `up_to` value in a COUNT aggregation must be greater than or equal to zero.")
      #expect(message([Self.sum("__name__")]) == "Aggregations are not supported for the property: __key__")
      #expect(message([Self.sum("my-field")])?.hasPrefix("Invalid property path \"my-field\".") == true)
      let six = (0..<6).map { Aggregation(alias: "a\($0)", kind: .count(upTo: nil)) }
      #expect(throws: MockError.unknown()) { try Self.run(six, []) }
      #expect(message(Array(six.prefix(5))) == nil)

      #expect(
        message([Self.count, Self.sum("x")], QueryFixtures.query(select: ["x"]))
          == "Cannot apply property masks when aggregation fields are present.")
      #expect(
        message([Self.count, Self.sum("x.y")], QueryFixtures.query(select: ["x"]))
          == "Cannot apply property masks when aggregation fields are present.")
      #expect(
        message([Self.count, Self.sum("x")], QueryFixtures.query(select: ["x.y"]))
          == "The aggregation property x is not present in the base query's property mask.")
      #expect(message([Self.count], QueryFixtures.query(select: ["__name__"])) == nil)
      let keysOnly = "Aggregation over non-key properties is not supported for base query that only returns keys."
      #expect(message([Self.count, Self.sum("c")], QueryFixtures.query(select: [])) == keysOnly)
      #expect(message([Self.count, Self.sum("c")], QueryFixtures.query(select: ["__name__"])) == keysOnly)
      #expect(
        message([Self.count, Self.sum("c")], QueryFixtures.query(select: ["__name__", "x"]))
          == "The aggregation property c is not present in the base query's property mask.")
      #expect(message([Self.count], QueryFixtures.query(select: [])) == nil)
      // Filter shape errors come before projection errors, planning errors after them.
      let twoNotEqual = QueryFilter.composite(
        op: .and, filters: [.field(path: "a", op: .notEqual, value: .integer(1)), .field(path: "b", op: .notEqual, value: .integer(1))])
      #expect(
        message([Self.sum("c")], QueryFixtures.query(twoNotEqual, select: ["a"]))
          == "Only a single 'NOT_EQUAL', 'NOT_IN', 'IS_NOT_NAN', or 'IS_NOT_NULL' filter allowed per query.")
      #expect(message([Self.sum("c")], QueryFixtures.query(orderBy: [QueryFixtures.asc("__name__")], select: [])) == keysOnly)

      let index = { (fields: String) in
        "This query requires an index that has fields [\(fields)] after __name__ and Firestore does not currently support such an index. "
          + "Please try the query again with additional ordering on those fields."
      }
      let byName = QueryFixtures.query(orderBy: [QueryFixtures.asc("__name__")])
      #expect(
        message([Self.sum("x"), Self.sum("`a-b`", "s2"), Self.sum("w", "s3"), Self.sum("m.k", "s4")], byName) == index("a-b, m.k, w, x"))
      #expect(
        message([Self.sum("x")], QueryFixtures.query(.field(path: "__name__", op: .greaterThan, value: QueryFixtures.reference("agp/a"))))
          == index("x"))
      let byNameAndY = QueryFixtures.query(
        .field(path: "y", op: .greaterThan, value: .integer(0)), orderBy: [QueryFixtures.asc("__name__")])
      #expect(message([Self.sum("x")], byNameAndY) == index("x"))
      #expect(message([Self.sum("x")], QueryFixtures.query(orderBy: [QueryFixtures.asc("x"), QueryFixtures.asc("__name__")])) == nil)
      #expect(message([Self.count], byName) == nil)
      // Any filter on __name__, equality included, puts the key before the aggregation fields;
      // an explicit ordering or an inequality on the field avoids that.
      let isP = QueryFilter.field(path: "__name__", op: .equal, value: QueryFixtures.reference("agp/p"))
      let notP = QueryFilter.field(path: "__name__", op: .notEqual, value: QueryFixtures.reference("agp/p"))
      let cUpTo5 = QueryFilter.field(path: "c", op: .lessThanOrEqual, value: .integer(5))
      #expect(message([Self.count, Self.sum("c")], QueryFixtures.query(isP)) == index("c"))
      #expect(
        message(
          [Self.count, Self.sum("c")],
          QueryFixtures.query(.composite(op: .and, filters: [isP, .field(path: "c", op: .equal, value: .integer(1))]))) == index("c"))
      #expect(message([Self.count, Self.sum("c")], QueryFixtures.query(isP, orderBy: [QueryFixtures.asc("b")])) == index("c"))
      #expect(message([Self.count, Self.sum("c")], QueryFixtures.query(isP, orderBy: [QueryFixtures.asc("c")])) == nil)
      #expect(message([Self.count, Self.sum("c")], QueryFixtures.query(notP)) == index("c"))
      #expect(message([Self.count, Self.sum("c")], QueryFixtures.query(.composite(op: .and, filters: [notP, cUpTo5]))) == nil)
      let afterKey = "order by clause cannot contain more fields after the key"
      let byAThenName = [QueryFixtures.asc("a"), QueryFixtures.asc("__name__")]
      #expect(message([Self.count, Self.sum("c")], QueryFixtures.query(cUpTo5, orderBy: byAThenName)) == afterKey)
      #expect(message([Self.count, Self.sum("d")], QueryFixtures.query(cUpTo5, orderBy: byAThenName)) == index("d"))
      let cNotNull = QueryFilter.field(path: "c", op: .lessThanOrEqual, value: .null)
      #expect(message([Self.count, Self.avg("c")], QueryFixtures.query(cNotNull, orderBy: byAThenName)) == index("c"))
      let byNameDesc = QueryFixtures.query(orderBy: [QueryFixtures.desc("__name__")])
      #expect(message([Self.sum("x")], byNameDesc) == "Firestore does not support descending key scans")
      #expect(message([Self.count], byNameDesc) == "Firestore does not support descending key scans")
      #expect(
        message([Self.count], QueryFixtures.query(startAt: .init(values: [.integer(10)], before: false))) == "Cursor has too many values.")
    }
  }
}
