import FirestoreEngine
import FirestorePlatform
import Foundation
import Testing

@testable import FirestoreWire

/// The byte keys of the cache's field indexes against ``ValueOrdering``: for every pair of a
/// corpus of values of every kind, the keys compare as the values do.
@Suite("Value ordering keys")
struct ValueOrderingKeyTests {
  static let root = "projects/p/databases/(default)/documents/"

  /// Values chosen for the encoding's edges, beside the emulator's ordering corpus.
  static let edges: [Value] = {
    var values: [Value] = [
      .null, .boolean(false), .boolean(true),
      .double(.nan), .double(-.nan), .double(Double(bitPattern: 0x7FF8_0000_0000_0001)),
      .double(-.infinity), .double(.infinity), .double(0), .double(-0.0), .integer(0),
      .double(.leastNonzeroMagnitude), .double(-.leastNonzeroMagnitude), .double(.leastNormalMagnitude),
      .double(.greatestFiniteMagnitude), .double(-.greatestFiniteMagnitude),
      .integer(.min), .integer(.max), .integer(.min + 1), .integer(.max - 1),
      .double(-9_223_372_036_854_775_808.0), .double(9_223_372_036_854_775_808.0), .double(9_223_372_036_854_774_784.0),
      .double(0.1), .double(-0.1), .double(1.0000000000000002), .double(0.9999999999999999), .integer(1), .double(1), .integer(-1),
      .double(-1.5), .double(2.5), .integer(2), .integer(3),
      .timestamp(Timestamp(seconds: Timestamp.minimumSeconds, nanoseconds: 0)),
      .timestamp(Timestamp(seconds: -1, nanoseconds: 999_999_999)),
      .timestamp(Timestamp(seconds: 0, nanoseconds: 0)), .timestamp(Timestamp(seconds: 0, nanoseconds: 1)),
      .timestamp(Timestamp(seconds: Timestamp.maximumSeconds, nanoseconds: 999_999_999)),
      .string(""), .string("\u{0}"), .string("\u{0}\u{0}"), .string("\u{0}a"), .string("a"), .string("a\u{0}"), .string("a\u{0}b"),
      .string("ab"), .string("b"), .string("é"), .string("e\u{301}"), .string("日本"), .string("日本語"), .string("😀"),
      .string("\u{FFFF}"), .string("\u{10FFFF}"),
      .bytes(Data()), .bytes(Data([0])), .bytes(Data([0, 0])), .bytes(Data([0, 0xFF])), .bytes(Data([0, 1])), .bytes(Data([1])),
      .bytes(Data([0xFF])), .bytes(Data([0xFF, 0])), .bytes(Data([0xFF, 0xFF])),
      .reference(root + "a/b"), .reference(root + "a/__id5__"), .reference(root + "a/__id-5__"), .reference(root + "a/__id10__"),
      .reference(root + "a/__id005__"), .reference(root + "a/__id__"), .reference(root + "a/__idx__"), .reference(root + "a/b/c/d"),
      .reference(root + "a/b\u{0}"), .reference(root + "a b/c"), .reference(root + "a/b/c/__id1__"), .reference("projects/p"),
      .reference(""), .reference("a//b"),
      .geoPoint(GeoPoint(latitude: -90, longitude: -180)), .geoPoint(GeoPoint(latitude: 0, longitude: 0)),
      .geoPoint(GeoPoint(latitude: -0.0, longitude: 0)), .geoPoint(GeoPoint(latitude: .nan, longitude: 1)),
      .geoPoint(GeoPoint(latitude: 0, longitude: .nan)), .geoPoint(GeoPoint(latitude: 90, longitude: 180)),
      .array([]), .array([.null]), .array([.double(.nan)]), .array([.integer(1), .double(.nan)]), .array([.integer(1)]),
      .array([.double(1), .null]), .array([.array([])]), .array([.array([.integer(1)])]), .array([.map([:])]),
      .array([.string("a"), .string("b")]), .array([.string("ab")]),
      .vector([]), .vector([1]), .vector([-0.0]), .vector([0]), .vector([1, 2]), .vector([.nan, 1]),
      .map([Value.typeKey: .string(Value.vectorTag)]), .map([Value.typeKey: .string(Value.vectorTag), "value": .integer(5)]),
      .map([Value.typeKey: .string(Value.vectorTag), "value": .array([.integer(1)]), "x": .null]),
      .map([Value.typeKey: .string("other")]),
      .map([:]), .map(["": .null]), .map(["a": .null]), .map(["a": .double(.nan)]), .map(["a": .integer(1)]),
      .map(["a": .integer(1), "b": .integer(0)]), .map(["a\u{0}": .null]), .map(["ab": .null]), .map(["b": .null]),
      .map(["a": .map(["b": .array([.double(-0.0)])])]), .map(["a": .map(["b": .array([.integer(0)])])]),
    ]
    // Integers around 2^53, where doubles stop holding every integer, against the doubles there.
    let twoTo53: Int64 = 1 << 53
    for offset: Int64 in -2...3 {
      values.append(.integer(twoTo53 + offset))
      values.append(.integer(-(twoTo53 + offset)))
      values.append(.double(Double(twoTo53 + offset)))
      values.append(.double(-Double(twoTo53 + offset)))
    }
    values.append(.double(Double(twoTo53).nextUp))
    values.append(.double(Double(twoTo53).nextDown))
    return values
  }()

  static var corpus: [Value] { ValueOrderingTests.emulatorOrder.flatMap { $0 } + edges }

  private static func sign(_ c: Int) -> Int { c < 0 ? -1 : (c > 0 ? 1 : 0) }

  private static func compareBytes(_ a: [UInt8], _ b: [UInt8]) -> Int {
    a == b ? 0 : (a.lexicographicallyPrecedes(b) ? -1 : 1)
  }

  @Test("every pair of the corpus: keys compare as the values, ascending and descending")
  func everyPair() {
    let values = Self.corpus
    let keys = values.map(ValueOrderingKey.encode)
    let descending = values.map { value in
      var key: [UInt8] = []
      ValueOrderingKey.append(value, descending: true, to: &key)
      return key
    }
    var failures: [String] = []
    for i in values.indices {
      for j in values.indices {
        let want = Self.sign(ValueOrdering.compare(values[i], values[j]))
        if Self.compareBytes(keys[i], keys[j]) != want { failures.append("\(values[i]) vs \(values[j])") }
        if Self.compareBytes(descending[i], descending[j]) != -want { failures.append("descending \(values[i]) vs \(values[j])") }
        if keys[i] != keys[j] && keys[j].starts(with: keys[i]) { failures.append("\(values[i]) is a prefix of \(values[j])") }
      }
    }
    #expect(failures.isEmpty, "\(failures.prefix(20))")
  }

  @Test("keys of several fields one after the other compare field by field")
  func concatenated() {
    let values = Array(Self.corpus.enumerated().filter { $0.offset % 3 == 0 }.map(\.element))
    var failures: [String] = []
    for a1 in values.prefix(40) {
      for b1 in values.prefix(40) {
        let first = ValueOrdering.compare(a1, b1)
        for (a2, b2) in zip(values, values.reversed()) {
          var a: [UInt8] = []
          var b: [UInt8] = []
          ValueOrderingKey.append(a1, to: &a)
          ValueOrderingKey.append(a2, descending: true, to: &a)
          ValueOrderingKey.append(b1, to: &b)
          ValueOrderingKey.append(b2, descending: true, to: &b)
          let want = first != 0 ? Self.sign(first) : -Self.sign(ValueOrdering.compare(a2, b2))
          if Self.compareBytes(a, b) != want { failures.append("(\(a1), \(a2)) vs (\(b1), \(b2))") }
        }
      }
    }
    #expect(failures.isEmpty, "\(failures.prefix(20))")
  }

  private static func randomValue(_ g: inout SplitMix64, depth: Int = 0) -> Value {
    let pick = Int.random(in: 0..<(depth > 1 ? 9 : 12), using: &g)
    let strings = ["", "a", "b", "ab", "\u{0}", "é", "日", "z\u{0}"]
    switch pick {
    case 0: return .null
    case 1: return .boolean(Bool.random(using: &g))
    case 2: return .integer(Int64.random(in: -3...3, using: &g) + (Bool.random(using: &g) ? 1 << 53 : 0))
    case 3:
      let doubles: [Double] = [.nan, -.infinity, -1.5, -0.0, 0, 0.5, 1, 2, 9_007_199_254_740_992, .infinity]
      return .double(doubles.randomElement(using: &g)!)
    case 4: return .timestamp(Timestamp(seconds: Int64.random(in: -2...2, using: &g), nanoseconds: Int32.random(in: 0...2, using: &g)))
    case 5: return .string(strings.randomElement(using: &g)!)
    case 6: return .bytes(Data((0..<Int.random(in: 0...3, using: &g)).map { _ in [0, 1, 0xFF].randomElement(using: &g)! }))
    case 7:
      let ids = ["a", "b", "__id1__", "__id-1__", "__id01__", "a\u{0}"]
      return .reference(root + "c/" + ids.randomElement(using: &g)! + (Bool.random(using: &g) ? "/d/x" : ""))
    case 8:
      return .geoPoint(
        GeoPoint(latitude: Double(Int.random(in: -1...1, using: &g)), longitude: [-0.0, 0, 1, .nan].randomElement(using: &g)!))
    case 9: return .array((0..<Int.random(in: 0...3, using: &g)).map { _ in randomValue(&g, depth: depth + 1) })
    case 10: return .vector((0..<Int.random(in: 0...2, using: &g)).map { _ in [0, 1, -1, .nan].randomElement(using: &g)! })
    default:
      var fields: [String: Value] = [:]
      for _ in 0..<Int.random(in: 0...2, using: &g) { fields[strings.randomElement(using: &g)!] = randomValue(&g, depth: depth + 1) }
      return .map(fields)
    }
  }

  @Test("random nested values: keys compare as the values")
  func randomValues() {
    var generator = SplitMix64(seed: 20_240_601)
    let values = (0..<600).map { _ in Self.randomValue(&generator) }
    let keys = values.map(ValueOrderingKey.encode)
    var failures: [String] = []
    for i in values.indices {
      for j in values.indices where Self.compareBytes(keys[i], keys[j]) != Self.sign(ValueOrdering.compare(values[i], values[j])) {
        failures.append("\(values[i]) vs \(values[j])")
      }
    }
    #expect(failures.isEmpty, "\(failures.prefix(20))")
  }

  @Test("a type's keys all begin with its type prefix, and the prefix's successor ends them")
  func typePrefixes() {
    for value in Self.corpus {
      let key = ValueOrderingKey.encode(value)
      let prefix = ValueOrderingKey.typePrefix(of: value)
      #expect(key.first == prefix, "\(value)")
      #expect(ValueOrderingKey.successor(ofPrefix: [prefix]) == [prefix + 1])
    }
    #expect(ValueOrderingKey.successor(ofPrefix: [0x12, 0xFF, 0xFF]) == [0x13])
    #expect(ValueOrderingKey.successor(ofPrefix: [0xFF]) == nil)
    #expect(ValueOrderingKey.successor(ofPrefix: []) == nil)
  }
}
