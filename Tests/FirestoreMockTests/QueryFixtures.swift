import FirestoreWire
import Foundation

/// Documents and query builders for the query-engine tests. The fixtures mirror what was
/// written to the emulator when its behaviour was recorded, so expected results can be
/// copied from it.
enum QueryFixtures {
  static let root = "projects/qe-probe/databases/(default)/documents/"

  static func document(_ path: String, _ fields: [String: Value]) -> Document {
    Document(name: root + path, fields: fields)
  }

  static func reference(_ path: String) -> Value { .reference(root + path) }

  static func ids(_ documents: [Document]) -> [String] {
    documents.map { String($0.name.split(separator: "/").last ?? "") }
  }

  static func query(
    _ filter: QueryFilter? = nil, orderBy: [StructuredQuery.Order] = [], startAt: StructuredQuery.Cursor? = nil,
    endAt: StructuredQuery.Cursor? = nil, offset: Int32? = nil, limit: Int32? = nil, select: [String]? = nil
  ) -> StructuredQuery {
    StructuredQuery(
      select: select, from: [.init(collectionID: "c")], filter: filter, orderBy: orderBy, startAt: startAt, endAt: endAt, offset: offset,
      limit: limit)
  }

  static func asc(_ path: String) -> StructuredQuery.Order { .init(fieldPath: path, descending: false) }
  static func desc(_ path: String) -> StructuredQuery.Order { .init(fieldPath: path, descending: true) }

  static func array(_ values: Value...) -> Value { .array(values) }

  /// Collection `ord` of the emulator session: one field `v` of every kind, keyed by a name
  /// that describes the value, plus `nofield` (no `v`) and `arr1d`.
  static let ord: [Document] = {
    let p53 = Int64(1) << 53
    let values: [(String, Value)] = [
      ("null", .null), ("false", .boolean(false)), ("true", .boolean(true)), ("nan", .double(.nan)), ("neginf", .double(-.infinity)),
      ("im1", .integer(-1)), ("d0", .double(0)), ("dneg0", .double(-0.0)), ("i0", .integer(0)), ("d1_5", .double(1.5)), ("i2", .integer(2)),
      ("inf", .double(.infinity)), ("i2p53p1", .integer(p53 + 1)), ("d2p53", .double(Double(p53))), ("i2p53", .integer(p53)),
      ("imax", .integer(.max)), ("d2p63", .double(9_223_372_036_854_775_808)),
      ("ts1", .timestamp(Timestamp(seconds: 1_577_836_800, nanoseconds: 0))),
      ("ts2", .timestamp(Timestamp(seconds: 1_609_459_200, nanoseconds: 500_000_000))),
      ("sa", .string("a")), ("sB", .string("B")), ("sempty", .string("")), ("sff", .string("\u{FF}")), ("s10000", .string("\u{10000}")),
      ("sfffd", .string("\u{FFFD}")), ("se000", .string("\u{E000}")),
      ("bytes1", .bytes(Data([0x00, 0xFF]))), ("bytes2", .bytes(Data([0x7F]))), ("bytes3", .bytes(Data())),
      ("ref1", reference("a/b")), ("ref2", reference("a/b/c/d")), ("ref3", reference("a b/x")), ("ref4", reference("a-b/x")),
      ("ref5", reference("aa/x")), ("ref6", reference("a/a")),
      ("geo1", .geoPoint(GeoPoint(latitude: 1, longitude: 5))), ("geo2", .geoPoint(GeoPoint(latitude: 2, longitude: -5))),
      ("geo3", .geoPoint(GeoPoint(latitude: 1, longitude: 6))),
      ("arr0", .array([])), ("arr1", array(.integer(1))), ("arr12", array(.integer(1), .integer(2))), ("arr2", array(.integer(2))),
      ("arrs", array(.string("a"))), ("arr1d", array(.double(1), .null, .double(.nan))),
      ("map0", .map([:])), ("mapa1", .map(["a": .integer(1)])), ("mapa1b", .map(["a": .integer(1), "b": .integer(0)])),
      ("mapb0", .map(["b": .integer(0)])), ("mapa2", .map(["a": .integer(2)])), ("mapastr", .map(["a": .string("x")])),
    ]
    return values.map { document("ord/" + $0.0, ["v": $0.1]) } + [document("ord/nofield", ["w": .integer(1)])]
  }()

  /// Every `ord` document with a `v`, in the emulator's `orderBy v` order (verified).
  static let ordByV = [
    "null", "false", "true", "nan", "neginf", "im1", "d0", "dneg0", "i0", "d1_5", "i2", "d2p53", "i2p53", "i2p53p1", "imax", "d2p63", "inf",
    "ts1", "ts2", "sempty", "sB", "sa", "sff", "se000", "sfffd", "s10000", "bytes3", "bytes1", "bytes2", "ref6", "ref1", "ref2", "ref3",
    "ref4", "ref5", "geo1", "geo3", "geo2", "arr0", "arr1", "arr1d", "arr12", "arr2", "arrs", "map0", "mapa1", "mapa1b", "mapa2",
    "mapastr", "mapb0",
  ]

  /// Collection `ineq` of the emulator session.
  static let ineq: [Document] = [
    document("ineq/d1", ["a": .integer(1), "a-b": .integer(2), "g": .integer(0), "b": .integer(5)]),
    document("ineq/d2", ["a": .integer(2), "a-b": .integer(1), "g": .integer(0), "b": .integer(5)]),
    document("ineq/d3", ["a": .integer(1), "a-b": .integer(1), "g": .integer(1), "b": .integer(4)]),
    document("ineq/d4", ["a": .integer(1), "a-b": .integer(1), "g": .integer(1), "b": .integer(5)]),
  ]
}
