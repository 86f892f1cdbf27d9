import FirestoreEngine
import FirestoreWire
import Testing

@testable import FirestoreClient

/// Which index serves a query, the key ranges it reads, and the index a query creates.
@Suite("Query index matcher")
struct QueryIndexMatcherTests {
  private static func query(_ filter: QueryFilter?, orderBy: [StructuredQuery.Order] = [], limit: Int32? = nil) -> StructuredQuery {
    StructuredQuery(from: [.init(collectionID: "c")], filter: filter, orderBy: orderBy, limit: limit)
  }

  private static func index(_ id: Int64, _ segments: (String, FieldIndex.Kind)...) -> FieldIndex {
    FieldIndex(id: id, collectionGroup: "c", segments: segments.map { FieldIndex.Segment(names: [$0.0], kind: $0.1) })
  }

  private static func key(_ values: (Value, Bool)...) -> [UInt8] {
    var bytes: [UInt8] = []
    for (value, descending) in values { ValueOrderingKey.append(value, descending: descending, to: &bytes) }
    return bytes
  }

  private static func field(_ path: String, _ op: QueryFilter.FieldOperator, _ value: Value) -> QueryFilter {
    .field(path: path, op: op, value: value)
  }

  @Test("an equality reads the keys of its value, in either direction")
  func equality() throws {
    let matcher = try #require(QueryIndexMatcher(Self.query(Self.field("a", .equal, .integer(5)))))
    for descending in [false, true] {
      let scan = try #require(matcher.scan(using: Self.index(1, ("a", descending ? .descending : .ascending))))
      let key = Self.key((.integer(5), descending))
      #expect(scan.ranges == [.init(arrayValue: [], lower: key, upper: ValueOrderingKey.successor(ofPrefix: key))])
      #expect(scan.narrowedSegments == 1)
    }
  }

  @Test("a range keeps to its operand's type; descending, the bounds swap and invert")
  func ranges() throws {
    let matcher = try #require(QueryIndexMatcher(Self.query(Self.field("a", .greaterThan, .integer(5)))))
    let ascending = try #require(matcher.scan(using: Self.index(1, ("a", .ascending))))
    #expect(ascending.ranges == [.init(arrayValue: [], lower: Self.key((.integer(5), false)), upper: [0x13])])
    let descending = try #require(matcher.scan(using: Self.index(1, ("a", .descending))))
    let five = Self.key((.integer(5), true))
    #expect(descending.ranges == [.init(arrayValue: [], lower: [~UInt8(0x12)], upper: ValueOrderingKey.successor(ofPrefix: five))])
    // Two bounds on one field: the tighter of each.
    let both = try #require(
      QueryIndexMatcher(
        Self.query(
          .composite(op: .and, filters: [Self.field("a", .greaterThan, .integer(1)), Self.field("a", .lessThanOrEqual, .integer(9))]))))
    let scan = try #require(both.scan(using: Self.index(1, ("a", .ascending))))
    let nine = Self.key((.integer(9), false))
    #expect(
      scan.ranges == [.init(arrayValue: [], lower: Self.key((.integer(1), false)), upper: ValueOrderingKey.successor(ofPrefix: nine))])
  }

  @Test("equalities lead, then one range; `in` multiplies the ranges")
  func composite() throws {
    let filter = QueryFilter.composite(
      op: .and, filters: [Self.field("a", .in, .array([.integer(1), .integer(2), .null])), Self.field("b", .lessThan, .string("x"))])
    let matcher = try #require(QueryIndexMatcher(Self.query(filter)))
    let scan = try #require(matcher.scan(using: Self.index(1, ("a", .ascending), ("b", .ascending))))
    #expect(scan.narrowedSegments == 2)
    #expect(scan.ranges.count == 2, "null in `in` matches nothing")
    #expect(scan.ranges.first?.lower == Self.key((.integer(1), false)) + [0x14])
    // The range's field first: only it narrows; `a` is read whole.
    let other = try #require(matcher.scan(using: Self.index(2, ("b", .ascending), ("a", .ascending))))
    #expect(other.narrowedSegments == 1)
    #expect(
      matcher.bestScan(among: [Self.index(2, ("b", .ascending), ("a", .ascending)), Self.index(1, ("a", .ascending), ("b", .ascending))])?
        .indexID == 1)
  }

  @Test("an index needs every field present in the results and its contains segment an array filter")
  func usable() throws {
    let equal = try #require(QueryIndexMatcher(Self.query(Self.field("a", .equal, .integer(1)))))
    #expect(equal.scan(using: Self.index(1, ("b", .ascending))) == nil)
    #expect(equal.scan(using: Self.index(1, ("a", .ascending), ("b", .ascending))) == nil)
    #expect(equal.scan(using: Self.index(1, ("t", .contains))) == nil)
    let ordered = try #require(
      QueryIndexMatcher(Self.query(Self.field("a", .equal, .integer(1)), orderBy: [.init(fieldPath: "b", descending: false)])))
    #expect(ordered.scan(using: Self.index(1, ("a", .ascending), ("b", .ascending)))?.narrowedSegments == 1)
    let contains = try #require(
      QueryIndexMatcher(Self.query(Self.field("t", .arrayContainsAny, .array([.string("x"), .string("x"), .null])))))
    #expect(
      contains.scan(using: Self.index(1, ("t", .contains)))?.ranges == [
        .init(arrayValue: Self.key((.string("x"), false)), lower: [], upper: nil)
      ])
    // Inside an OR, a filter says nothing about presence.
    let or = try #require(
      QueryIndexMatcher(
        Self.query(.composite(op: .or, filters: [Self.field("a", .equal, .integer(1)), Self.field("b", .equal, .integer(1))]))))
    #expect(or.scan(using: Self.index(1, ("a", .ascending))) == nil)
    // Null, NaN, != and not-in narrow nothing, but the field is present.
    for filter in [
      Self.field("a", .equal, .null), Self.field("a", .lessThan, .double(.nan)), Self.field("a", .notEqual, .integer(1)),
      Self.field("a", .notIn, .array([.integer(1)])), QueryFilter.unary(path: "a", op: .isNaN),
    ] {
      let matcher = try #require(QueryIndexMatcher(Self.query(filter)))
      #expect(
        matcher.scan(using: Self.index(1, ("a", .ascending)))
          == .init(indexID: 1, ranges: [.init(arrayValue: [], lower: [], upper: nil)], narrowedSegments: 0))
    }
    #expect(QueryIndexMatcher(Self.query(nil)) == nil, "matches every document")
    #expect(QueryIndexMatcher(Self.query(nil, orderBy: [.init(fieldPath: "__name__", descending: true)])) == nil)
    #expect(QueryIndexMatcher(Self.query(nil, limit: 3)) != nil)
  }

  @Test("the index a query creates: equalities, the contains field, then the ordering")
  func indexToCreate() throws {
    func created(_ filter: QueryFilter?, orderBy: [StructuredQuery.Order] = []) -> [String]? {
      QueryIndexMatcher(Self.query(filter, orderBy: orderBy))?.indexToCreate(collectionGroup: "c")?.segments.map {
        "\($0.fieldPath) \($0.kind.rawValue)"
      }
    }
    #expect(created(Self.field("a", .equal, .integer(1))) == ["a ASCENDING"])
    #expect(
      created(
        .composite(
          op: .and,
          filters: [
            Self.field("a", .equal, .integer(1)), Self.field("t", .arrayContains, .integer(1)), Self.field("b", .greaterThan, .integer(1)),
          ]),
        orderBy: [.init(fieldPath: "b", descending: true)]) == ["t CONTAINS", "a ASCENDING", "b DESCENDING"])
    #expect(
      created(.composite(op: .and, filters: [Self.field("a", .greaterThan, .integer(1)), Self.field("b", .lessThan, .integer(1))])) == nil,
      "two inequality fields")
    #expect(created(.composite(op: .or, filters: [Self.field("a", .equal, .integer(1)), Self.field("b", .equal, .integer(1))])) == nil)
    #expect(created(Self.field("__name__", .equal, .reference("x"))) == nil)
    #expect(created(Self.field("a", .notEqual, .integer(1))) == ["a ASCENDING"])
    #expect(created(nil, orderBy: [.init(fieldPath: "a", descending: true)]) == ["a DESCENDING"])
  }

  @Test("a stored definition reads back; one this client did not write is refused")
  func storedDefinitions() {
    let index = FieldIndex(
      id: 3, collectionGroup: "c",
      segments: [
        .init(names: ["t"], kind: .contains), .init(names: ["a-b", "c"], kind: .descending), .init(names: ["d"], kind: .ascending),
      ])
    #expect(FieldIndex(id: 3, collectionGroup: "c", segmentsJSON: index.segmentsJSON) == index)
    for json in [
      "", "{}", "[]", "[{\"fieldPath\": \"a\"}]", "[{\"fieldPath\": \"a\", \"kind\": \"UP\"}]",
      "[{\"fieldPath\": \"a.\", \"kind\": \"ASCENDING\"}]",
      "[{\"fieldPath\": \"__name__\", \"kind\": \"ASCENDING\"}]",
      "[{\"fieldPath\": \"a\", \"kind\": \"ASCENDING\"}, {\"fieldPath\": \"a\", \"kind\": \"DESCENDING\"}]",
      "[{\"fieldPath\": \"a\", \"kind\": \"CONTAINS\"}, {\"fieldPath\": \"b\", \"kind\": \"CONTAINS\"}]",
    ] {
      #expect(FieldIndex(id: 1, collectionGroup: "c", segmentsJSON: json) == nil, "\(json)")
    }
  }

  @Test("a document's entries: none without a field, one per distinct element, none when too large")
  func entries() {
    let index = Self.index(1, ("t", .contains), ("a", .ascending))
    #expect(index.entries(of: ["t": .array([.integer(1)])]) == [])
    #expect(index.entries(of: ["a": .integer(1), "t": .string("x")]) == [])
    #expect(index.entries(of: ["a": .integer(1), "t": .array([.integer(1), .double(1), .integer(2)])])?.count == 2)
    #expect(index.entries(of: ["a": .string(String(repeating: "x", count: 2000)), "t": .array([.integer(1)])]) == nil)
    #expect(index.entries(of: ["a": .integer(1), "t": .array((0..<1001).map { .integer(Int64($0)) })]) == nil)
  }
}
