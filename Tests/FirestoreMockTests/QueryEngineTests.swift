import FirestoreWire
import Foundation
import Testing

@testable import FirestoreMock

// Expected results in this file were recorded from the Firestore emulator (1.19.9) with the
// same documents and queries (see QueryFixtures), unless a comment says otherwise.

@Suite("Query engine")
struct QueryEngineTests {
  typealias F = QueryFilter
  static let nan = Value.double(.nan)

  static func run(_ query: StructuredQuery, _ documents: [Document] = QueryFixtures.ord) throws -> [String] {
    QueryFixtures.ids(try QueryEngine.execute(query, over: documents.shuffled()))
  }

  static func run(_ filter: QueryFilter, _ documents: [Document] = QueryFixtures.ord) throws -> [String] {
    try run(QueryFixtures.query(filter), documents)
  }

  static func error(_ query: StructuredQuery, _ documents: [Document] = QueryFixtures.ord) -> MockError? {
    do {
      _ = try QueryEngine.execute(query, over: documents)
      return nil
    } catch {
      return error
    }
  }

  static func v(_ op: QueryFilter.FieldOperator, _ value: Value) -> QueryFilter { .field(path: "v", op: op, value: value) }

  static let ordByV = QueryFixtures.ordByV

  @Test("orderBy sorts mixed types as the emulator; documents without the field are left out")
  func orderMixedTypes() throws {
    #expect(try Self.run(QueryFixtures.query(orderBy: [QueryFixtures.asc("v")])) == Self.ordByV)
    #expect(try Self.run(QueryFixtures.query(orderBy: [QueryFixtures.desc("v")])) == Self.ordByV.reversed())
    // No orderBy: by name, nofield included.
    #expect(
      try Self.run(QueryFixtures.query()) == (Self.ordByV + ["nofield"]).sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    )
  }

  @Test(
    "comparison filters match only the operand's type class; NaN and null operands match nothing",
    arguments: [
      ("v < 3", v(.lessThan, .integer(3)), ["neginf", "im1", "d0", "dneg0", "i0", "d1_5", "i2"]),
      ("v < 3.0", v(.lessThan, .double(3)), ["neginf", "im1", "d0", "dneg0", "i0", "d1_5", "i2"]),
      (
        "v > -inf", v(.greaterThan, .double(-.infinity)),
        ["im1", "d0", "dneg0", "i0", "d1_5", "i2", "d2p53", "i2p53", "i2p53p1", "imax", "d2p63", "inf"]
      ),
      ("v < NaN", v(.lessThan, nan), []),
      ("v <= NaN", v(.lessThanOrEqual, nan), []),
      ("v >= NaN", v(.greaterThanOrEqual, nan), []),
      ("v > NaN", v(.greaterThan, nan), []),
      ("v >= null", v(.greaterThanOrEqual, .null), []),
      ("v < null", v(.lessThan, .null), []),
      ("v > ''", v(.greaterThan, .string("")), ["sB", "sa", "sff", "se000", "sfffd", "s10000"]),
      ("v >= false", v(.greaterThanOrEqual, .boolean(false)), ["false", "true"]),
      ("v >= []", v(.greaterThanOrEqual, .array([])), ["arr0", "arr1", "arr1d", "arr12", "arr2", "arrs"]),
      ("v >= {}", v(.greaterThanOrEqual, .map([:])), ["map0", "mapa1", "mapa1b", "mapa2", "mapastr", "mapb0"]),
      ("v > geo(1,5)", v(.greaterThan, .geoPoint(GeoPoint(latitude: 1, longitude: 5))), ["geo3", "geo2"]),
      ("v > ref a/b", v(.greaterThan, QueryFixtures.reference("a/b")), ["ref2", "ref3", "ref4", "ref5"]),
      ("v > bytes ''", v(.greaterThan, .bytes(Data())), ["bytes1", "bytes2"]),
      ("v > 2020-06", v(.greaterThan, .timestamp(Timestamp(seconds: 1_590_969_600, nanoseconds: 0))), ["ts2"]),
    ])
  func comparisons(label: String, filter: QueryFilter, expected: [String]) throws {
    #expect(try Self.run(filter) == expected, "\(label)")
  }

  @Test(
    "equality filters: numeric across kinds, NaN/null operands match nothing",
    arguments: [
      ("v == 0", v(.equal, .integer(0)), ["d0", "dneg0", "i0"]),
      ("v == -0.0", v(.equal, .double(-0.0)), ["d0", "dneg0", "i0"]),
      ("v == 2^53 (double)", v(.equal, .double(9_007_199_254_740_992)), ["d2p53", "i2p53"]),
      ("v == NaN", v(.equal, nan), []),
      ("v == null", v(.equal, .null), []),
      ("v == [1.0]", v(.equal, QueryFixtures.array(.double(1))), ["arr1"]),
      ("v == {a: 1.0}", v(.equal, .map(["a": .double(1)])), ["mapa1"]),
      ("v == geo", v(.equal, .geoPoint(GeoPoint(latitude: 1, longitude: 5))), ["geo1"]),
      ("v in [2, 'a', NaN, null]", v(.in, QueryFixtures.array(.integer(2), .string("a"), nan, .null)), ["i2", "sa"]),
      ("v in [1.0 … 29]", v(.in, .array((0..<30).map { .integer($0) })), ["d0", "dneg0", "i0", "i2"]),
      ("v array-contains 1", v(.arrayContains, .integer(1)), ["arr1", "arr12", "arr1d"]),
      ("v array-contains NaN", v(.arrayContains, nan), []),
      ("v array-contains null", v(.arrayContains, .null), []),
      ("v array-contains-any [2, 'a']", v(.arrayContainsAny, QueryFixtures.array(.integer(2), .string("a"))), ["arr12", "arr2", "arrs"]),
      ("v array-contains-any [NaN, null]", v(.arrayContainsAny, QueryFixtures.array(nan, .null)), []),
      ("missing field == 1", .field(path: "none", op: .equal, value: .integer(1)), []),
    ])
  func equalities(label: String, filter: QueryFilter, expected: [String]) throws {
    #expect(try Self.run(filter) == expected.sorted(), "\(label)")
  }

  @Test("!= and NOT_IN need a present, non-null field; != NaN keeps NaN; a null operand matches nothing")
  func notEqualFamily() throws {
    let withoutNull = Self.ordByV.filter { $0 != "null" }
    #expect(try Self.run(Self.v(.notEqual, .integer(2))) == withoutNull.filter { $0 != "i2" })
    #expect(try Self.run(Self.v(.notEqual, Self.nan)) == withoutNull)
    #expect(try Self.run(Self.v(.notEqual, .null)) == [])
    #expect(try Self.run(Self.v(.notIn, QueryFixtures.array(.integer(2)))) == withoutNull.filter { $0 != "i2" })
    #expect(try Self.run(Self.v(.notIn, QueryFixtures.array(Self.nan))) == withoutNull)
    #expect(try Self.run(Self.v(.notIn, QueryFixtures.array(.null))) == [])
    #expect(try Self.run(Self.v(.notIn, QueryFixtures.array(.integer(1), .null))) == [])
    #expect(try Self.run(F.unary(path: "v", op: .isNotNull)) == withoutNull)
    // IS_NOT_NAN excludes null as well as NaN.
    #expect(try Self.run(F.unary(path: "v", op: .isNotNaN)) == withoutNull.filter { $0 != "nan" })
    #expect(try Self.run(F.unary(path: "v", op: .isNull)) == ["null"])
    #expect(try Self.run(F.unary(path: "v", op: .isNaN)) == ["nan"])
  }

  @Test("NaN and null nested in arrays and maps compare like any value")
  func nestedSpecials() throws {
    let docs =
      [
        ("arrnan", QueryFixtures.array(Self.nan)), ("arrnull", QueryFixtures.array(.null)), ("mapnull", .map(["a": .null])),
        ("mapnan", .map(["a": Self.nan])), ("i1", .integer(1)), ("nul", .null), ("nan", Self.nan),
        ("arrmap", QueryFixtures.array(.map(["a": .integer(1)]), .integer(5))),
      ].map { QueryFixtures.document("ord2/" + $0.0, ["v": $0.1]) } + [QueryFixtures.document("ord2/none", [:])]
    #expect(try Self.run(Self.v(.equal, QueryFixtures.array(Self.nan)), docs) == ["arrnan"])
    #expect(try Self.run(Self.v(.equal, QueryFixtures.array(.null)), docs) == ["arrnull"])
    #expect(try Self.run(Self.v(.equal, .map(["a": .null])), docs) == ["mapnull"])
    #expect(try Self.run(Self.v(.equal, .map(["a": Self.nan])), docs) == ["mapnan"])
    #expect(try Self.run(Self.v(.lessThan, QueryFixtures.array(.integer(0))), docs) == ["arrnull", "arrnan"])
    #expect(try Self.run(Self.v(.in, QueryFixtures.array(QueryFixtures.array(Self.nan))), docs) == ["arrnan"])
    #expect(try Self.run(Self.v(.in, QueryFixtures.array(.double(1), Self.nan)), docs) == ["i1"])
    #expect(try Self.run(Self.v(.arrayContains, .map(["a": .double(1)])), docs) == ["arrmap"])
    #expect(try Self.run(Self.v(.arrayContainsAny, QueryFixtures.array(.double(5))), docs) == ["arrmap"])
    #expect(
      try Self.run(Self.v(.notEqual, QueryFixtures.array(Self.nan)), docs) == ["nan", "i1", "arrnull", "arrmap", "mapnull", "mapnan"])
    #expect(
      try Self.run(Self.v(.notIn, QueryFixtures.array(QueryFixtures.array(Self.nan), .integer(1))), docs) == [
        "nan", "arrnull", "arrmap", "mapnull", "mapnan",
      ])
  }

  @Test("composite filters: OR, AND with nested OR, single-child OR, empty AND")
  func composites() throws {
    let or = F.composite(op: .or, filters: [Self.v(.equal, .integer(2)), Self.v(.equal, .string("a"))])
    #expect(try Self.run(or) == ["i2", "sa"])
    let nested = F.composite(
      op: .or,
      filters: [
        .composite(
          op: .and,
          filters: [Self.v(.equal, .integer(2)), .composite(op: .or, filters: [Self.v(.equal, .integer(2)), Self.v(.equal, .integer(3))])]),
        Self.v(.equal, .string("a")),
      ])
    #expect(try Self.run(nested) == ["i2", "sa"])
    #expect(try Self.run(F.composite(op: .or, filters: [Self.v(.equal, .integer(2))])) == ["i2"])
    #expect(try Self.run(F.composite(op: .and, filters: [])) == (Self.ordByV + ["nofield"]).sorted())
    let twoArrayContains = F.composite(op: .or, filters: [Self.v(.arrayContains, .integer(1)), Self.v(.arrayContains, .integer(2))])
    #expect(try Self.run(twoArrayContains) == ["arr1", "arr12", "arr1d", "arr2"])
    // != inside OR is allowed and orders by v.
    let notEqualOr = F.composite(op: .or, filters: [Self.v(.notEqual, .integer(1)), Self.v(.equal, .integer(2))])
    #expect(try Self.run(notEqualOr) == Self.ordByV.filter { $0 != "null" })
  }

  @Test("a field of an inequality inside OR still orders, so documents lacking it drop out")
  func inequalityInsideOr() throws {
    let docs = [
      QueryFixtures.document("orx/a", ["w": .integer(2)]), QueryFixtures.document("orx/b", ["v": .integer(1)]),
      QueryFixtures.document("orx/c", ["v": .integer(0), "w": .integer(2)]),
    ]
    let or = F.composite(op: .or, filters: [Self.v(.greaterThan, .integer(0)), .field(path: "w", op: .equal, value: .integer(2))])
    #expect(try Self.run(QueryFixtures.query(or), docs) == ["c", "b"])
    #expect(try Self.run(QueryFixtures.query(or, orderBy: [QueryFixtures.asc("w")]), docs) == ["c"])
  }

  @Test("implicit order: inequality fields sorted by path, then __name__, in the last explicit direction")
  func implicitOrder() throws {
    let docs = QueryFixtures.ineq
    let aAndAB = F.composite(
      op: .and,
      filters: [.field(path: "`a-b`", op: .greaterThan, value: .integer(0)), .field(path: "a", op: .greaterThan, value: .integer(0))])
    // a before `a-b`: names compare unquoted, so "a" is a prefix of "a-b".
    #expect(try Self.run(QueryFixtures.query(aAndAB), docs) == ["d3", "d4", "d1", "d2"])
    let b = F.field(path: "b", op: .greaterThan, value: .integer(0))
    #expect(try Self.run(QueryFixtures.query(b, orderBy: [QueryFixtures.desc("g")]), docs) == ["d4", "d3", "d2", "d1"])
    #expect(try Self.run(QueryFixtures.query(b, orderBy: [QueryFixtures.asc("g")]), docs) == ["d1", "d2", "d3", "d4"])
    let notNullAndGreater = F.composite(
      op: .and, filters: [.unary(path: "b", op: .isNotNull), .field(path: "g", op: .greaterThan, value: .integer(-1))])
    #expect(try Self.run(QueryFixtures.query(notNullAndGreater), docs) == ["d3", "d1", "d2", "d4"])
    // An inequality on __name__ adds no ordering before the key.
    let nameAndA = F.composite(
      op: .and,
      filters: [
        .field(path: "__name__", op: .greaterThan, value: QueryFixtures.reference("ineq/d1")),
        .field(path: "a", op: .greaterThan, value: .integer(0)),
      ])
    #expect(try Self.run(QueryFixtures.query(nameAndA), docs) == ["d3", "d4", "d2"])

    let normalized = QueryEngine.normalizedOrder(QueryFixtures.query(aAndAB, orderBy: [QueryFixtures.desc("g")]))
    #expect(normalized == [QueryFixtures.desc("g"), QueryFixtures.desc("a"), QueryFixtures.desc("`a-b`"), QueryFixtures.desc("__name__")])
    #expect(QueryEngine.normalizedOrder(QueryFixtures.query()) == [QueryFixtures.asc("__name__")])
    let explicitA = QueryEngine.normalizedOrder(QueryFixtures.query(aAndAB, orderBy: [QueryFixtures.asc("`a`")]))
    #expect(explicitA == [QueryFixtures.asc("`a`"), QueryFixtures.asc("`a-b`"), QueryFixtures.asc("__name__")])
  }

  @Test("cursors: full, partial, before/after, descending, on __name__")
  func cursors() throws {
    let docs = QueryFixtures.ineq
    typealias C = StructuredQuery.Cursor
    let byB = [QueryFixtures.asc("b"), QueryFixtures.asc("g")]
    #expect(try Self.run(QueryFixtures.query(orderBy: byB, startAt: C(values: [.integer(5), .integer(0)], before: false)), docs) == ["d4"])
    #expect(try Self.run(QueryFixtures.query(orderBy: byB, endAt: C(values: [.integer(5)], before: true)), docs) == ["d3"])
    #expect(try Self.run(QueryFixtures.query(orderBy: byB, endAt: C(values: [.integer(4)], before: false)), docs) == ["d3"])
    #expect(try Self.run(QueryFixtures.query(orderBy: byB, startAt: C(values: [.integer(4)], before: false)), docs) == ["d1", "d2", "d4"])
    let byBDesc = [QueryFixtures.desc("b")]
    #expect(try Self.run(QueryFixtures.query(orderBy: byBDesc, startAt: C(values: [.integer(5)], before: false)), docs) == ["d3"])
    #expect(
      try Self.run(QueryFixtures.query(orderBy: byBDesc, startAt: C(values: [.integer(5)], before: true)), docs) == [
        "d4", "d2", "d1", "d3",
      ])
    // A cursor value of another type orders by type class.
    #expect(
      try Self.run(QueryFixtures.query(orderBy: [QueryFixtures.asc("b")], startAt: C(values: [.string("x")], before: true)), docs) == [])
    #expect(
      try Self.run(QueryFixtures.query(orderBy: [QueryFixtures.asc("b")], startAt: C(values: [.null], before: true)), docs).count == 4)
    let startAfterEnd = QueryFixtures.query(
      orderBy: [QueryFixtures.asc("b")], startAt: C(values: [.integer(6)], before: true), endAt: C(values: [.integer(4)], before: false))
    #expect(try Self.run(startAfterEnd, docs) == [])
    let byBName = [QueryFixtures.asc("b"), QueryFixtures.asc("__name__")]
    let endBeforeD2 = QueryFixtures.query(
      orderBy: byBName, endAt: C(values: [.integer(5), QueryFixtures.reference("ineq/d2")], before: true))
    #expect(try Self.run(endBeforeD2, docs) == ["d3", "d1"])
    let byName = [QueryFixtures.asc("__name__")]
    #expect(
      try Self.run(QueryFixtures.query(orderBy: byName, startAt: C(values: [QueryFixtures.reference("ineq/d2")], before: true)), docs) == [
        "d2", "d3", "d4",
      ])
    // A cursor name in another collection or below a document orders by path segments.
    #expect(
      try Self.run(QueryFixtures.query(orderBy: byName, startAt: C(values: [QueryFixtures.reference("other/a")], before: false)), docs)
        == [])
    #expect(
      try Self.run(QueryFixtures.query(orderBy: byName, startAt: C(values: [QueryFixtures.reference("ineq/d2/x/y")], before: false)), docs)
        == ["d3", "d4"])
    // Cursor values line up with the normalized order, implicit fields included.
    let g = F.field(path: "a", op: .greaterThan, value: .integer(0))
    let full = QueryFixtures.query(
      g, orderBy: [QueryFixtures.desc("g"), QueryFixtures.desc("a"), QueryFixtures.desc("__name__")],
      startAt: C(values: [.integer(1), .integer(1), QueryFixtures.reference("ineq/d4")], before: false))
    #expect(try Self.run(full, docs) == ["d3", "d2", "d1"])
  }

  @Test("offset and limit apply after cursors")
  func offsetLimit() throws {
    let docs = QueryFixtures.ineq
    let byB = [QueryFixtures.asc("b")]
    #expect(try Self.run(QueryFixtures.query(orderBy: byB, offset: 1, limit: 2), docs) == ["d1", "d2"])
    #expect(
      try Self.run(QueryFixtures.query(orderBy: byB, startAt: .init(values: [.integer(5)], before: true), offset: 1), docs) == ["d2", "d4"])
    #expect(try Self.run(QueryFixtures.query(limit: 0), docs) == [])
    #expect(try Self.run(QueryFixtures.query(offset: 10), docs) == [])
  }

  @Test("projection keeps the selected paths; __name__ alone keeps no fields")
  func projection() throws {
    let docs = [
      QueryFixtures.document("nest/n1", ["m": .map(["x": .integer(2)])]),
      QueryFixtures.document("nest/n2", ["m": .map(["x": .integer(1), "y": .integer(0)])]),
      QueryFixtures.document("nest/n3", ["m": .integer(5)]),
      QueryFixtures.document("nest/n4", ["m": .map(["a.b": .integer(1)]), "a": .map(["b": .integer(9)])]),
      QueryFixtures.document("nest/n5", ["m": .map([:])]),
    ]
    func fields(_ select: [String]) throws -> [[String: Value]] {
      try QueryEngine.execute(QueryFixtures.query(select: select), over: docs).map(\.fields)
    }
    #expect(
      try fields(["m.x", "a"]) == [
        ["m": .map(["x": .integer(2)])], ["m": .map(["x": .integer(1)])], [:], ["a": .map(["b": .integer(9)])], [:],
      ])
    #expect(try fields(["__name__", "a"]) == [[:], [:], [:], ["a": .map(["b": .integer(9)])], [:]])
    #expect(try fields([]) == [[:], [:], [:], [:], [:]])
    #expect(try fields(["m", "m.x"]) == docs.map { ["m": $0.fields["m"]!] })
    #expect(try fields(["m.x.zz"]) == [[:], [:], [:], [:], [:]])
    let projected = QueryEngine.project(docs[3], onto: ["m.`a.b`"])
    #expect(projected.fields == ["m": .map(["a.b": .integer(1)])])
    #expect(projected.name == docs[3].name)
    // Filters and order still see the whole document.
    let filtered = QueryFixtures.query(.field(path: "m.x", op: .greaterThan, value: .integer(0)), select: ["m"])
    #expect(try QueryEngine.execute(filtered, over: docs).map(\.fields) == [docs[1].fields, docs[0].fields])
  }

  @Test("nested paths, quoted names and __name__ values")
  func paths() throws {
    let doc = QueryFixtures.document("nest/n4", ["m": .map(["a.b": .integer(1), "x": .map(["y": .null])]), "a": .map(["b": .integer(9)])])
    #expect(QueryEngine.value(atCanonicalPath: "m.`a.b`", in: doc) == .integer(1))
    #expect(QueryEngine.value(atCanonicalPath: "a.b", in: doc) == .integer(9))
    #expect(QueryEngine.value(atCanonicalPath: "m.x.y", in: doc) == .null)
    #expect(QueryEngine.value(atCanonicalPath: "m.x.y.z", in: doc) == nil)
    #expect(QueryEngine.value(atCanonicalPath: "nope", in: doc) == nil)
    #expect(QueryEngine.value(atCanonicalPath: "__name__", in: doc) == .reference(doc.name))
    #expect(try Self.run(.field(path: "__name__", op: .equal, value: QueryFixtures.reference("ord/i2"))) == ["i2"])
    #expect(try Self.run(.field(path: "__name__", op: .equal, value: QueryFixtures.reference("x/i2"))) == [])
    let nameIn = F.field(
      path: "__name__", op: .in, value: QueryFixtures.array(QueryFixtures.reference("ord/sa"), QueryFixtures.reference("ord/i2")))
    #expect(try Self.run(nameIn) == ["i2", "sa"])
    let after = try Self.run(.field(path: "__name__", op: .greaterThan, value: QueryFixtures.reference("ord/sa")))
    #expect(after == ["se000", "sempty", "sff", "sfffd", "true", "ts1", "ts2"])
  }

  @Test("documents are ordered by name segment by segment, numeric IDs first")
  func nameOrder() throws {
    let ids = ["a", "a b", "a-b", "B", "aa", "\u{FF}", "\u{10000}", "\u{E000}", "__id5__", "__id10__", "_", "z"]
    let docs = ids.map { QueryFixtures.document("names/" + $0, ["x": .integer(1)]) }
    let expected = ["__id5__", "__id10__", "B", "_", "a", "a b", "a-b", "aa", "z", "\u{FF}", "\u{E000}", "\u{10000}"]
    #expect(try Self.run(QueryFixtures.query(orderBy: [QueryFixtures.asc("__name__")]), docs) == expected)
    #expect(try Self.run(QueryFixtures.query(orderBy: [QueryFixtures.desc("x")]), docs) == expected.reversed())
    #expect(
      try Self.run(QueryFixtures.query(.field(path: "x", op: .equal, value: .integer(1)), orderBy: [QueryFixtures.desc("__name__")]), docs)
        == expected.reversed())
    let group = ["p/a/sub/1", "p/a b/sub/1", "p/a-b/sub/1", "p/aa/sub/1", "q/a/sub/0", "sub/z"]
    let groupDocs = group.reversed().map { QueryFixtures.document($0, [:]) }
    let names = try QueryEngine.execute(QueryFixtures.query(), over: groupDocs).map(\.name)
    #expect(names == group.map { QueryFixtures.root + $0 })
  }
}
