import FirestoreEngine
import Foundation
import Testing

@testable import FirestoreWire

@Suite("Firestore value ordering")
struct ValueOrderingTests {
  static let root = "projects/p/databases/(default)/documents/"

  /// One field holding every kind of value, in the order the emulator returned for
  /// `orderBy v` (verified); values in one inner array compared equal (the emulator broke
  /// those ties by document name).
  static let emulatorOrder: [[Value]] = [
    [.null],
    [.boolean(false)],
    [.boolean(true)],
    [.double(.nan)],
    [.double(-.infinity)],
    [.integer(-1)],
    [.double(0), .double(-0.0), .integer(0)],
    [.double(1.5)],
    [.integer(2)],
    [.double(9_007_199_254_740_992), .integer(9_007_199_254_740_992)],
    [.integer(9_007_199_254_740_993)],
    [.integer(.max)],
    [.double(9_223_372_036_854_775_808)],
    [.double(.infinity)],
    [.timestamp(Timestamp(seconds: 1_577_836_800, nanoseconds: 0))],
    [.timestamp(Timestamp(seconds: 1_609_459_200, nanoseconds: 500_000_000))],
    [.string("")],
    [.string("B")],
    [.string("a")],
    [.string("\u{FF}")],
    [.string("\u{E000}")],
    [.string("\u{FFFD}")],
    [.string("\u{10000}")],
    [.bytes(Data())],
    [.bytes(Data([0x00, 0xFF]))],
    [.bytes(Data([0x7F]))],
    [.reference(root + "a/a")],
    [.reference(root + "a/b")],
    [.reference(root + "a/b/c/d")],
    [.reference(root + "a b/x")],
    [.reference(root + "a-b/x")],
    [.reference(root + "aa/x")],
    [.geoPoint(GeoPoint(latitude: 1, longitude: 5))],
    [.geoPoint(GeoPoint(latitude: 1, longitude: 6))],
    [.geoPoint(GeoPoint(latitude: 2, longitude: -5))],
    [.array([])],
    [.array([.integer(1)])],
    [.array([.double(1), .null, .double(.nan)])],
    [.array([.integer(1), .integer(2)])],
    [.array([.integer(2)])],
    [.array([.string("a")])],
    [vector([5])],
    [vector([1, 2])],
    [vector([1, 3])],
    [vector([0, 0, 0])],
    [.map([:])],
    [.map(["a": .integer(1)])],
    [.map(["a": .integer(1), "b": .integer(0)])],
    [.map(["a": .integer(2)])],
    [.map(["a": .string("x")])],
    [.map(["b": .integer(0)])],
  ]

  static func vector(_ elements: [Double]) -> Value {
    .map(["__type__": .string("__vector__"), "value": .array(elements.map(Value.double))])
  }

  @Test("every pair of values orders as on the emulator")
  func everyPair() {
    let groups = Self.emulatorOrder
    for (i, group) in groups.enumerated() {
      for a in group {
        for b in group {
          #expect(ValueOrdering.compare(a, b) == 0, "\(a) vs \(b)")
        }
        for later in groups[(i + 1)...] {
          for b in later {
            #expect(ValueOrdering.compare(a, b) < 0, "\(a) vs \(b)")
            #expect(ValueOrdering.compare(b, a) > 0, "\(b) vs \(a)")
          }
        }
      }
    }
  }

  @Test("type classes rank null < bool < number < timestamp < string < bytes < reference < geo < array < vector < map")
  func typeOrder() {
    let ranks = [
      Value.null, .boolean(true), .integer(1), .double(1), .timestamp(Timestamp(seconds: 0, nanoseconds: 0)), .string(""), .bytes(Data()),
      .reference(Self.root + "a/b"), .geoPoint(GeoPoint(latitude: 0, longitude: 0)), .array([]), Self.vector([1]), .map([:]),
    ].map(ValueOrdering.typeOrder)
    #expect(ranks == [0, 1, 2, 2, 3, 4, 5, 6, 7, 8, 9, 10])
  }

  @Test("integers and doubles compare exactly, never through Double(Int64)")
  func integerDoublePrecision() {
    let p53 = Int64(1) << 53
    // Double(2^53 + 1) rounds to 2^53, so a naive comparison would call these equal.
    #expect(ValueOrdering.compare(.integer(p53 + 1), .double(Double(p53))) > 0)
    #expect(ValueOrdering.compare(.double(Double(p53)), .integer(p53 + 1)) < 0)
    #expect(ValueOrdering.compare(.integer(-p53 - 1), .double(-Double(p53))) < 0)
    #expect(ValueOrdering.compare(.integer(p53), .double(Double(p53))) == 0)
    // Int64.max converts to 2^63 as a double; it is still smaller.
    #expect(ValueOrdering.compare(.integer(.max), .double(9_223_372_036_854_775_808)) < 0)
    #expect(ValueOrdering.compare(.integer(.min), .double(-9_223_372_036_854_775_808)) == 0)
    #expect(ValueOrdering.compare(.integer(.min), .double(-9_223_372_036_854_777_856)) > 0)
    #expect(ValueOrdering.compare(.integer(1), .double(1.5)) < 0)
    #expect(ValueOrdering.compare(.integer(2), .double(1.5)) > 0)
    #expect(ValueOrdering.compare(.integer(-1), .double(-1.5)) > 0)
    #expect(ValueOrdering.compare(.integer(-2), .double(-1.5)) < 0)
    #expect(ValueOrdering.compare(.integer(0), .double(-0.0)) == 0)
    #expect(ValueOrdering.compare(.integer(0), .double(-0.25)) > 0)
    #expect(ValueOrdering.compare(.integer(.max), .double(.infinity)) < 0)
    #expect(ValueOrdering.compare(.integer(.min), .double(-.infinity)) > 0)
    #expect(ValueOrdering.compare(.integer(0), .double(.ulpOfOne)) < 0)
  }

  @Test("NaN sorts before every number and equals itself; -0.0 equals 0")
  func nan() {
    #expect(ValueOrdering.compare(.double(.nan), .double(-.infinity)) < 0)
    #expect(ValueOrdering.compare(.double(.nan), .integer(.min)) < 0)
    #expect(ValueOrdering.compare(.integer(.min), .double(.nan)) > 0)
    #expect(ValueOrdering.compare(.double(.nan), .double(-.nan)) == 0)
    #expect(ValueOrdering.compare(.double(.nan), .boolean(true)) > 0)
    #expect(ValueOrdering.areEqual(.double(.nan), .double(.nan)))
    #expect(ValueOrdering.areEqual(.array([.double(.nan)]), .array([.double(.nan)])))
    #expect(ValueOrdering.areEqual(.double(-0.0), .double(0)))
  }

  @Test("strings compare by UTF-8 bytes, not by Swift's String <")
  func utf8Strings() {
    // UTF-16 code units would put U+10000 (a surrogate pair, 0xD800…) before U+E000 and U+FFFD.
    #expect(ValueOrdering.compareUTF8("\u{E000}", "\u{10000}") < 0)
    #expect(ValueOrdering.compareUTF8("\u{FFFD}", "\u{10000}") < 0)
    #expect(ValueOrdering.compareUTF8("\u{FF}", "\u{E000}") < 0)
    #expect(ValueOrdering.compareUTF8("B", "a") < 0)
    #expect(ValueOrdering.compareUTF8("a", "ab") < 0)
    #expect(ValueOrdering.compareUTF8("", "a") < 0)
    // Swift treats canonically equivalent strings as equal; Firestore compares bytes.
    let decomposed = "e\u{301}"
    let composed = "\u{E9}"
    #expect(decomposed == composed)
    #expect(ValueOrdering.compareUTF8(decomposed, composed) < 0)
    #expect(!ValueOrdering.areEqual(.string(decomposed), .string(composed)))
    #expect(ValueOrdering.compare(.string("\u{1F600}"), .string("\u{FFFF}")) > 0)
  }

  @Test("bytes compare unsigned, a prefix first")
  func bytes() {
    #expect(ValueOrdering.compare(.bytes(Data([0x00, 0xFF])), .bytes(Data([0x7F]))) < 0)
    #expect(ValueOrdering.compare(.bytes(Data([0x80])), .bytes(Data([0x7F]))) > 0)
    #expect(ValueOrdering.compare(.bytes(Data([1])), .bytes(Data([1, 0]))) < 0)
    #expect(ValueOrdering.compare(.bytes(Data([1, 2]).dropFirst()), .bytes(Data([2]))) == 0)
  }

  @Test("references compare segment by segment; numeric IDs first (as __name__ on the emulator)")
  func references() {
    // The emulator's __name__ order for these IDs (verified).
    let ids = [
      "__id-9223372036854775808__", "__id-5__", "__id5__", "__id10__", "__id9223372036854775807__", "B", "_", "a", "a b", "a-b", "aa", "z",
      "\u{FF}", "\u{E000}", "\u{10000}",
    ]
    for (i, a) in ids.enumerated() {
      for b in ids[(i + 1)...] {
        #expect(ValueOrdering.compareResourceNames(Self.root + "c/" + a, Self.root + "c/" + b) < 0, "\(a) vs \(b)")
        #expect(ValueOrdering.compareSegments(b, a) > 0)
      }
    }
    // Collection-group results across parents (verified): p/a/sub/1 < p/a b/sub/1 < p/a-b/sub/1 < p/aa/sub/1 < q/a/sub/0 < sub/z.
    let names = ["p/a/sub/1", "p/a b/sub/1", "p/a-b/sub/1", "p/aa/sub/1", "q/a/sub/0", "sub/z"].map { Self.root + $0 }
    #expect(names.sorted { ValueOrdering.compareResourceNames($0, $1) < 0 } == names)
    #expect(ValueOrdering.compareResourceNames(Self.root + "a/b", Self.root + "a/b") == 0)
    #expect(ValueOrdering.compareSegments("__idx__", "__id5__") > 0)
    #expect(ValueOrdering.compareSegments("__id__", "A") > 0)
  }

  @Test("geo points, arrays, maps and vectors")
  func composites() {
    func geo(_ lat: Double, _ lng: Double) -> Value { .geoPoint(GeoPoint(latitude: lat, longitude: lng)) }
    #expect(ValueOrdering.compare(geo(1, 100), geo(2, -100)) < 0)
    #expect(ValueOrdering.compare(geo(1, -1), geo(1, 1)) < 0)
    #expect(ValueOrdering.compare(geo(-0.0, 0), geo(0, 0)) == 0)
    #expect(ValueOrdering.compare(.array([.integer(1)]), .array([.double(1)])) == 0)
    #expect(ValueOrdering.compare(.array([.null, .integer(5)]), .array([.boolean(false)])) < 0)
    #expect(ValueOrdering.compare(.map(["a": .integer(1)]), .map(["a": .double(1)])) == 0)
    // Keys compare by UTF-8 bytes: "B" < "a", so {B: 9} < {a: 0}.
    #expect(ValueOrdering.compare(.map(["B": .integer(9)]), .map(["a": .integer(0)])) < 0)
    #expect(ValueOrdering.compare(.map(["a": .integer(1), "b": .integer(2)]), .map(["a": .integer(1), "c": .integer(0)])) < 0)
    // A vector is not a map: {} sorts after every vector although it would sort first among maps.
    #expect(ValueOrdering.compare(Self.vector([100]), .map([:])) < 0)
    #expect(ValueOrdering.compare(Self.vector([9]), Self.vector([1, 1])) < 0)
    #expect(ValueOrdering.compare(.array([.integer(9)]), Self.vector([1])) < 0)
    #expect(ValueOrdering.compare(.map(["__type__": .string("other")]), .map([:])) > 0)
  }

  @Test("a pending server timestamp sorts after timestamps and before strings, by its local write time alone")
  func pendingServerTimestamps() {
    func pending(_ seconds: Int64, over previous: Value?) -> Value {
      .pendingServerTimestamp(localWriteTime: Timestamp(seconds: seconds, nanoseconds: 0), previous: previous)
    }
    let latest = Value.timestamp(Timestamp(seconds: 9_999_999_999, nanoseconds: 0))
    let ordered: [Value] = [latest, pending(1, over: nil), pending(2, over: .string("z")), .string(""), .map([:])]
    for (i, a) in ordered.enumerated() {
      for (j, b) in ordered.enumerated() {
        #expect(ValueOrdering.compare(a, b).signum() == (i < j ? -1 : i == j ? 0 : 1), "\(a) against \(b)")
      }
    }
    // Two writes of one time are one place, whatever value each replaced (one batch's
    // documents then keep their key order, as the server's time will keep them).
    #expect(ValueOrdering.compare(pending(1, over: .integer(5)), pending(1, over: nil)) == 0)
    // No operand is of its class, so a range filter over timestamps or maps leaves it out.
    #expect(ValueOrdering.typeOrder(pending(1, over: nil)) != ValueOrdering.typeOrder(latest))
    #expect(ValueOrdering.typeOrder(pending(1, over: nil)) != ValueOrdering.typeOrder(.map([:])))
  }

  @Test("areEqual is Firestore equality (1 == 1.0), unlike Value's ==")
  func equality() {
    #expect(ValueOrdering.areEqual(.integer(1), .double(1)))
    #expect(Value.integer(1) != Value.double(1))
    #expect(ValueOrdering.areEqual(.map(["x": .array([.integer(3)])]), .map(["x": .array([.double(3)])])))
    #expect(!ValueOrdering.areEqual(.null, .boolean(false)))
    #expect(!ValueOrdering.areEqual(.string("1"), .integer(1)))
    #expect(!ValueOrdering.areEqual(.reference(Self.root + "a/b"), .string(Self.root + "a/b")))
  }
}
