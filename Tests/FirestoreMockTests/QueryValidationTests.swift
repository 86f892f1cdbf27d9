import FirestoreWire
import Testing

@testable import FirestoreMock

extension QueryEngineTests {
  /// Every message below is the emulator's, recorded from the same request.
  @Suite("Query validation")
  struct Validation {
    typealias F = QueryFilter
    typealias C = StructuredQuery.Cursor

    static func expectError(_ query: StructuredQuery, _ message: String, status: String = "INVALID_ARGUMENT") {
      let error = QueryEngineTests.error(query)
      #expect(error?.message == message)
      #expect(error?.status == status)
      #expect(error?.httpStatus == 400)
    }

    static func v(_ op: QueryFilter.FieldOperator, _ value: Value) -> QueryFilter { .field(path: "v", op: op, value: value) }
    static func w(_ op: QueryFilter.FieldOperator, _ value: Value) -> QueryFilter { .field(path: "w", op: op, value: value) }
    static func and(_ filters: QueryFilter...) -> QueryFilter { .composite(op: .and, filters: filters) }
    static func or(_ filters: QueryFilter...) -> QueryFilter { .composite(op: .or, filters: filters) }
    static let one = Value.integer(1)
    static let list = QueryFixtures.array(.integer(1))

    @Test("limit, offset and cursors")
    func limitsAndCursors() {
      Self.expectError(QueryFixtures.query(limit: -1), "limit is negative")
      Self.expectError(QueryFixtures.query(offset: -1), "offset is negative")
      let name = QueryFixtures.reference("ord/x")
      Self.expectError(
        QueryFixtures.query(orderBy: [QueryFixtures.asc("v")], startAt: C(values: [Self.one, name, Self.one], before: false)),
        "Cursor has too many values.")
      // Only explicit orderings count: the implicit __name__ takes no cursor value.
      Self.expectError(
        QueryFixtures.query(orderBy: [QueryFixtures.asc("v")], startAt: C(values: [Self.one, name], before: false)),
        "Cursor has too many values.")
      Self.expectError(QueryFixtures.query(startAt: C(values: [name], before: false)), "Cursor has too many values.")
      Self.expectError(
        QueryFixtures.query(
          Self.w(.greaterThan, .integer(0)), orderBy: [QueryFixtures.asc("v")], endAt: C(values: [Self.one, Self.one], before: false)),
        "Cursor has too many values.")
      let byName = [QueryFixtures.asc("__name__")]
      Self.expectError(
        QueryFixtures.query(orderBy: byName, startAt: C(values: [.string("sa")], before: false)),
        "Cursor __key__ value is not a document reference.")
      Self.expectError(
        QueryFixtures.query(orderBy: byName, startAt: C(values: [Self.one], before: false)),
        "Cursor __key__ value is not a document reference.")
      Self.expectError(
        QueryFixtures.query(orderBy: byName, startAt: C(values: [QueryFixtures.reference("ord")], before: false)),
        "Resource name \"projects/qe-probe/databases/(default)/documents/ord\" lacks \"/\" at index 51.")
    }

    @Test("operand shapes of IN, NOT_IN, ARRAY_CONTAINS_ANY")
    func operands() {
      Self.expectError(QueryFixtures.query(Self.v(.in, Self.one)), "'IN' requires an ArrayValue.")
      Self.expectError(QueryFixtures.query(Self.v(.notIn, Self.one)), "'NOT_IN' requires an ArrayValue.")
      Self.expectError(QueryFixtures.query(Self.v(.arrayContainsAny, Self.one)), "'ARRAY_CONTAINS_ANY' requires an ArrayValue.")
      Self.expectError(QueryFixtures.query(Self.v(.in, .array([]))), "'IN' requires an non-empty ArrayValue.")
      Self.expectError(QueryFixtures.query(Self.v(.notIn, .array([]))), "'NOT_IN' requires an non-empty ArrayValue.")
      Self.expectError(QueryFixtures.query(Self.v(.arrayContainsAny, .array([]))), "'ARRAY_CONTAINS_ANY' requires an non-empty ArrayValue.")
      let values = { (n: Int) in Value.array((0..<n).map { .integer(Int64($0)) }) }
      Self.expectError(QueryFixtures.query(Self.v(.in, values(31))), "'IN' supports up to 30 comparison values.")
      Self.expectError(
        QueryFixtures.query(Self.v(.arrayContainsAny, values(31))), "'ARRAY_CONTAINS_ANY' supports up to 30 comparison values.")
      Self.expectError(QueryFixtures.query(Self.v(.notIn, values(11))), "'NOT_IN' supports up to 10 comparison values.")
      #expect(QueryEngineTests.error(QueryFixtures.query(Self.v(.in, values(30)))) == nil)
      #expect(QueryEngineTests.error(QueryFixtures.query(Self.v(.notIn, values(10)))) == nil)
    }

    @Test("combinations of filters")
    func combinations() {
      let ac = Self.v(.arrayContains, Self.one)
      let arrayMessage = "A maximum of 1 'ARRAY_CONTAINS' filter is allowed per disjunction."
      Self.expectError(QueryFixtures.query(Self.and(ac, Self.v(.arrayContains, .integer(2)))), arrayMessage)
      Self.expectError(QueryFixtures.query(Self.and(ac, Self.v(.arrayContainsAny, Self.list))), arrayMessage)
      Self.expectError(
        QueryFixtures.query(Self.and(Self.v(.arrayContainsAny, Self.list), Self.w(.arrayContainsAny, Self.list))), arrayMessage)
      Self.expectError(
        QueryFixtures.query(Self.and(ac, Self.or(Self.v(.arrayContains, .integer(2)), Self.w(.equal, Self.one)))), arrayMessage)
      #expect(QueryEngineTests.error(QueryFixtures.query(Self.or(ac, Self.v(.arrayContainsAny, Self.list)))) == nil)
      #expect(
        QueryEngineTests.error(
          QueryFixtures.query(
            Self.and(Self.v(.arrayContainsAny, Self.list), Self.or(Self.w(.equal, Self.one), Self.w(.equal, .integer(2)))))) == nil)
      #expect(QueryEngineTests.error(QueryFixtures.query(Self.and(Self.v(.in, Self.list), Self.w(.arrayContainsAny, Self.list)))) == nil)

      let single = "Only a single 'NOT_EQUAL', 'NOT_IN', 'IS_NOT_NAN', or 'IS_NOT_NULL' filter allowed per query."
      Self.expectError(QueryFixtures.query(Self.and(Self.v(.notEqual, Self.one), Self.w(.notEqual, .integer(2)))), single)
      Self.expectError(QueryFixtures.query(Self.and(Self.v(.notEqual, Self.one), Self.v(.notIn, QueryFixtures.array(.integer(2))))), single)
      Self.expectError(QueryFixtures.query(Self.and(.unary(path: "v", op: .isNotNull), .unary(path: "w", op: .isNotNaN))), single)
      Self.expectError(QueryFixtures.query(Self.and(Self.v(.notEqual, Self.one), .unary(path: "v", op: .isNotNull))), single)
      Self.expectError(QueryFixtures.query(Self.or(Self.v(.notEqual, Self.one), Self.w(.notEqual, Self.one))), single)
      Self.expectError(QueryFixtures.query(Self.and(Self.and(Self.v(.notEqual, Self.one)), Self.v(.notEqual, .integer(2)))), single)
      Self.expectError(QueryFixtures.query(Self.and(.unary(path: "v", op: .isNotNaN), Self.v(.notIn, Self.list))), single)
      #expect(QueryEngineTests.error(QueryFixtures.query(Self.and(Self.v(.notEqual, Self.one), Self.w(.greaterThan, .integer(0))))) == nil)
      #expect(QueryEngineTests.error(QueryFixtures.query(Self.and(.unary(path: "v", op: .isNaN), .unary(path: "w", op: .isNull)))) == nil)

      let notIn = "'NOT_IN' cannot be used in the same query with 'IN', 'ARRAY_CONTAINS_ANY' or 'OR'."
      Self.expectError(QueryFixtures.query(Self.or(Self.v(.notIn, Self.list), Self.v(.equal, .integer(2)))), notIn)
      Self.expectError(QueryFixtures.query(Self.and(Self.v(.notIn, Self.list), Self.w(.in, Self.list))), notIn)
      Self.expectError(QueryFixtures.query(Self.and(Self.v(.notIn, Self.list), Self.w(.arrayContainsAny, Self.list))), notIn)

      Self.expectError(QueryFixtures.query(F.composite(op: .or, filters: [])), "Composite filter must have at least one sub-filter.")
    }

    @Test("filters on __name__")
    func documentKey() {
      let key = "__key__ filter value must be a Key"
      Self.expectError(QueryFixtures.query(.field(path: "__name__", op: .equal, value: .string("i2"))), key)
      Self.expectError(
        QueryFixtures.query(
          .field(path: "__name__", op: .in, value: QueryFixtures.array(QueryFixtures.reference("ord/sa"), .string("i2")))), key)
      Self.expectError(QueryFixtures.query(.unary(path: "__name__", op: .isNaN)), key)
      Self.expectError(QueryFixtures.query(.unary(path: "__name__", op: .isNotNull)), key)
      Self.expectError(
        QueryFixtures.query(.field(path: "__name__", op: .arrayContains, value: QueryFixtures.reference("ord/sa"))),
        "the name __key__ is reserved")
      Self.expectError(
        QueryFixtures.query(.field(path: "__name__", op: .arrayContainsAny, value: QueryFixtures.array(QueryFixtures.reference("ord/a")))),
        "the name __key__ is reserved")
      Self.expectError(
        QueryFixtures.query(.field(path: "__name__", op: .lessThan, value: QueryFixtures.reference("names"))),
        "Resource name \"projects/qe-probe/databases/(default)/documents/names\" lacks \"/\" at index 53.")
      #expect(
        QueryEngineTests.error(
          QueryFixtures.query(.field(path: "__name__", op: .notIn, value: QueryFixtures.array(QueryFixtures.reference("ord/a"))))) == nil)
    }

    @Test("field paths")
    func fieldPaths() throws {
      let regex =
        "Unquoted property paths must match regex ([a-zA-Z_][a-zA-Z_0-9]*), "
        + "and quoted property paths must match regex (`(?:[^`\\\\]|(?:\\\\.))+`)"
      for path in ["my-field", "a..b", "`a", "1a", "``", "a.", "a.`b", "a b", "`x\\y`"] {
        Self.expectError(
          QueryFixtures.query(.field(path: path, op: .equal, value: Self.one)), "Invalid property path \"\(path)\". " + regex)
      }
      Self.expectError(QueryFixtures.query(orderBy: [QueryFixtures.asc("my-field")]), "Invalid property path \"my-field\". " + regex)
      Self.expectError(QueryFixtures.query(select: ["my-field"]), "Invalid property path \"my-field\". " + regex)
      Self.expectError(QueryFixtures.query(.field(path: "", op: .equal, value: Self.one)), "Invalid empty property path string.")
      Self.expectError(QueryFixtures.query(.field(path: "__name__.a", op: .equal, value: Self.one)), "the name __key__ is reserved")
      Self.expectError(QueryFixtures.query(.field(path: "a.__name__", op: .equal, value: Self.one)), "the name __key__ is reserved")
      Self.expectError(
        QueryFixtures.query(.field(path: "a.__x__", op: .equal, value: Self.one)), "Invalid reserved name in field path __x__")
      Self.expectError(
        QueryFixtures.query(.field(path: "`__x__`", op: .equal, value: Self.one)), "Invalid reserved name in field path __x__")
      Self.expectError(QueryFixtures.query(orderBy: [QueryFixtures.asc("a.__x__")]), "Invalid reserved name in field path __x__")
      Self.expectError(QueryFixtures.query(select: ["__x__"]), "Invalid reserved name in field path __x__")
      Self.expectError(
        QueryFixtures.query(.field(path: "__key__", op: .equal, value: Self.one)), "Invalid property path member name \"__key__\".")
      for path in ["__", "___", "____", "__name", "a.`b`.c", "`a.b`", "`a\\`b`"] {
        #expect(QueryEngineTests.error(QueryFixtures.query(.field(path: path, op: .equal, value: Self.one))) == nil, "\(path)")
      }
      #expect(throws: MockError.self) { try FieldPathParser.parse("a b") }
      #expect(try FieldPathParser.parse("`a\\`b`.c_1") == ["a`b", "c_1"])
    }

    @Test("orderBy: duplicates, fields after the key, descending key scans")
    func orderBy() {
      let afterKey = "order by clause cannot contain more fields after the key"
      Self.expectError(
        QueryFixtures.query(orderBy: [QueryFixtures.asc("v"), QueryFixtures.desc("v")]), "order by clause cannot contain duplicate fields v"
      )
      Self.expectError(
        QueryFixtures.query(orderBy: [QueryFixtures.asc("`a-b`"), QueryFixtures.asc("`a-b`")]),
        "order by clause cannot contain duplicate fields a-b")
      Self.expectError(
        QueryFixtures.query(orderBy: [QueryFixtures.asc("m.x"), QueryFixtures.desc("m.x")]),
        "order by clause cannot contain duplicate fields m.x")
      Self.expectError(QueryFixtures.query(orderBy: [QueryFixtures.asc("__name__"), QueryFixtures.asc("__name__")]), afterKey)
      Self.expectError(QueryFixtures.query(orderBy: [QueryFixtures.desc("__name__"), QueryFixtures.asc("x")]), afterKey)
      // The inequality field is appended after the explicit key.
      Self.expectError(QueryFixtures.query(Self.v(.notEqual, .integer(2)), orderBy: [QueryFixtures.asc("__name__")]), afterKey)
      Self.expectError(QueryFixtures.query(.unary(path: "b", op: .isNotNull), orderBy: [QueryFixtures.asc("__name__")]), afterKey)
      Self.expectError(QueryFixtures.query(.unary(path: "b", op: .isNotNaN), orderBy: [QueryFixtures.asc("__name__")]), afterKey)
      Self.expectError(QueryFixtures.query(Self.v(.greaterThanOrEqual, .integer(0)), orderBy: [QueryFixtures.desc("__name__")]), afterKey)
      Self.expectError(
        QueryFixtures.query(Self.w(.greaterThan, Self.one), orderBy: [QueryFixtures.asc("x"), QueryFixtures.asc("__name__")]), afterKey)

      // [emulator-only] Descending __name__ alone, with no filter on a property.
      let scan = "Firestore does not support descending key scans"
      let byNameDesc = [QueryFixtures.desc("__name__")]
      Self.expectError(QueryFixtures.query(orderBy: byNameDesc), scan, status: "FAILED_PRECONDITION")
      Self.expectError(QueryFixtures.query(orderBy: byNameDesc, limit: 2), scan, status: "FAILED_PRECONDITION")
      Self.expectError(
        QueryFixtures.query(.field(path: "__name__", op: .equal, value: QueryFixtures.reference("ord/a")), orderBy: byNameDesc), scan,
        status: "FAILED_PRECONDITION")
      for filter in [
        Self.v(.equal, Self.one), Self.v(.in, Self.list), Self.or(Self.v(.equal, Self.one), Self.v(.equal, .integer(2))),
        .unary(path: "v", op: .isNull),
        Self.v(.arrayContains, Self.one), .unary(path: "v", op: .isNaN), Self.and(Self.v(.equal, Self.one)),
        Self.or(.field(path: "__name__", op: .equal, value: QueryFixtures.reference("ord/a")), Self.v(.equal, Self.one)),
      ] {
        #expect(QueryEngineTests.error(QueryFixtures.query(filter, orderBy: byNameDesc)) == nil)
      }
      #expect(
        QueryEngineTests.error(
          QueryFixtures.query(Self.v(.greaterThan, Self.one), orderBy: [QueryFixtures.asc("v"), QueryFixtures.desc("__name__")])) == nil)
    }

    @Test("equality on __name__ with inequalities on other fields")
    func keyEquality() {
      let message = "Equality on key is not allowed if there are other inequality fields and key does not appear in inequalities."
      let isP = F.field(path: "__name__", op: .equal, value: QueryFixtures.reference("agp/p"))
      let inP = F.field(path: "__name__", op: .in, value: QueryFixtures.array(QueryFixtures.reference("agp/p")))
      Self.expectError(QueryFixtures.query(Self.and(isP, Self.v(.greaterThan, .integer(0)))), message)
      Self.expectError(QueryFixtures.query(Self.and(inP, Self.v(.notEqual, Self.one))), message)
      Self.expectError(QueryFixtures.query(Self.or(isP, Self.v(.greaterThan, .integer(0)))), message)
      Self.expectError(QueryFixtures.query(Self.and(isP, .unary(path: "v", op: .isNotNull))), message)
      let keyRange = F.field(path: "__name__", op: .greaterThan, value: QueryFixtures.reference("agp/a"))
      let notInKey = F.field(path: "__name__", op: .notIn, value: QueryFixtures.array(QueryFixtures.reference("agp/p")))
      for filter in [
        Self.and(isP, Self.v(.greaterThan, .integer(0)), keyRange), Self.and(notInKey, Self.v(.greaterThan, .integer(0))),
        Self.and(isP, Self.v(.notEqual, .null)), Self.and(isP, Self.v(.lessThan, .double(.nan))),
      ] {
        #expect(QueryEngineTests.error(QueryFixtures.query(filter)) == nil)
      }
      #expect(QueryEngineTests.error(QueryFixtures.query(isP, orderBy: [QueryFixtures.asc("v")])) == nil)
    }

    @Test("filters that can never match add no implicit ordering")
    func degenerateFilters() throws {
      let byCThenName = [QueryFixtures.asc("c"), QueryFixtures.asc("__name__")]
      let never: [QueryFilter] = [
        Self.v(.notEqual, .null), Self.v(.lessThan, .null), Self.v(.greaterThanOrEqual, .null), Self.v(.lessThan, .double(.nan)),
        Self.v(.notIn, QueryFixtures.array(.null)), Self.v(.notIn, QueryFixtures.array(.null, .null)),
      ]
      for filter in never {
        #expect(try QueryEngine.execute(QueryFixtures.query(filter, orderBy: byCThenName), over: QueryFixtures.ord) == [])
        #expect(QueryEngine.normalizedOrder(QueryFixtures.query(filter)) == [QueryFixtures.asc("__name__")])
      }
      let afterKey = "order by clause cannot contain more fields after the key"
      for filter in [
        Self.v(.notEqual, .double(.nan)), Self.v(.notIn, QueryFixtures.array(.integer(1), .null)),
        Self.v(.notIn, QueryFixtures.array(.double(.nan))),
        Self.v(.greaterThan, Self.one), .unary(path: "v", op: .isNotNull),
      ] {
        Self.expectError(QueryFixtures.query(filter, orderBy: byCThenName), afterKey)
      }
      // They still count for the per-query limits, and as a filter on a property.
      let single = "Only a single 'NOT_EQUAL', 'NOT_IN', 'IS_NOT_NAN', or 'IS_NOT_NULL' filter allowed per query."
      Self.expectError(QueryFixtures.query(Self.and(Self.v(.notEqual, .null), Self.w(.notEqual, Self.one))), single)
      Self.expectError(QueryFixtures.query(Self.and(Self.v(.notIn, QueryFixtures.array(.null)), Self.w(.notEqual, Self.one))), single)
      #expect(QueryEngineTests.error(QueryFixtures.query(Self.v(.lessThan, .null), orderBy: [QueryFixtures.desc("__name__")])) == nil)
    }

    @Test("error body is the emulator's JSON")
    func errorJSON() {
      let body = JSONWriter.string(MockError.invalidArgument("limit is negative").json)
      #expect(body == #"{"error":{"code":400,"message":"limit is negative","status":"INVALID_ARGUMENT"}}"#)
      #expect(JSONWriter.string(MockError.unknown().json) == #"{"error":{"code":500,"status":"UNKNOWN"}}"#)
    }
  }
}
