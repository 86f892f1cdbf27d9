import FirestoreEngine
import FirestoreWire
import Testing

@testable import FirestoreMock

extension QueryEngineTests {
  /// Expected values recorded from the emulator (`:commit` with `updateTransforms`, then a read).
  @Suite("Transforms and field maps")
  struct Transforms {
    static let now = Timestamp(seconds: 1_790_000_000, nanoseconds: 354_987_654)

    static func apply(_ kind: FieldTransform.Kind, _ current: Value?) -> (Value, Value) {
      let r = TransformEvaluator.apply(kind, to: current, requestTime: now)
      return (r.newValue, r.result)
    }

    static func new(_ kind: FieldTransform.Kind, _ current: Value?) -> Value { apply(kind, current).0 }

    @Test("increment")
    func increment() {
      let p53 = Int64(1) << 53
      #expect(Self.apply(.increment(.integer(2)), .integer(5)) == (.integer(7), .integer(7)))
      #expect(Self.new(.increment(.integer(1)), .integer(.max)) == .integer(.max))
      #expect(Self.new(.increment(.integer(-1)), .integer(.min)) == .integer(.min))
      #expect(Self.new(.increment(.double(0.5)), .integer(1)) == .double(1.5))
      #expect(Self.new(.increment(.integer(1)), .double(1.5)) == .double(2.5))
      #expect(Self.new(.increment(.double(0)), .integer(p53 + 1)) == .double(9_007_199_254_740_992))
      #expect(Self.new(.increment(.integer(3)), .string("x")) == .integer(3))
      #expect(Self.new(.increment(.double(3.5)), .null) == .double(3.5))
      #expect(Self.new(.increment(.integer(3)), nil) == .integer(3))
      #expect(Self.new(.increment(.double(.nan)), .integer(3)) == .double(.nan))
    }

    @Test("maximum and minimum")
    func extrema() {
      let p53 = Int64(1) << 53
      #expect(Self.apply(.maximum(.double(3)), .integer(3)) == (.integer(3), .integer(3)))
      #expect(Self.new(.maximum(.integer(3)), .double(3)) == .double(3))
      #expect(Self.new(.maximum(.double(3.5)), .integer(3)) == .double(3.5))
      #expect(Self.new(.maximum(.double(3.5)), .integer(4)) == .integer(4))
      // A tie keeps the stored value (the emulator prints -0.0 as 0.0, so only the tie rule shows).
      #expect(Self.new(.maximum(.integer(0)), .double(-0.0)).isNegativeZero)
      #expect(Self.new(.maximum(.double(.nan)), .integer(3)) == .double(.nan))
      #expect(Self.new(.maximum(.integer(5)), .double(.nan)) == .double(.nan))
      #expect(Self.new(.minimum(.integer(5)), .double(.nan)) == .double(.nan))
      #expect(Self.new(.minimum(.double(.nan)), .integer(3)) == .double(.nan))
      #expect(Self.new(.minimum(.double(3)), .integer(3)) == .integer(3))
      #expect(Self.new(.minimum(.integer(3)), .string("z")) == .integer(3))
      #expect(Self.new(.minimum(.double(-1.5)), nil) == .double(-1.5))
      #expect(Self.new(.maximum(.integer(10)), .string("A")) == .integer(10))
      // Exact comparison: 2^53 + 1 beats the double 2^53 and loses to 2^53 + 2.
      #expect(Self.new(.maximum(.double(Double(p53))), .integer(p53 + 1)) == .integer(p53 + 1))
      #expect(Self.new(.minimum(.double(Double(p53 + 2))), .integer(p53 + 1)) == .integer(p53 + 1))
    }

    @Test("array union and remove use Firestore equality")
    func arrays() {
      let nan = Value.double(.nan)
      let stored = Value.array([.integer(1), .double(2), .null, nan, .string("x")])
      let union = FieldTransform.Kind.appendMissingElements([
        .double(1), .integer(2), .null, nan, .string("y"), .string("y"), .integer(3), .double(3),
      ])
      #expect(Self.apply(union, stored) == (.array([.integer(1), .double(2), .null, nan, .string("x"), .string("y"), .integer(3)]), .null))
      #expect(
        Self.new(.appendMissingElements([.integer(1), .integer(2)]), .array([.integer(1), .integer(1)]))
          == .array([.integer(1), .integer(1), .integer(2)]))
      #expect(Self.new(.appendMissingElements([.integer(1)]), .string("x")) == .array([.integer(1)]))
      #expect(Self.new(.appendMissingElements([.integer(1)]), nil) == .array([.integer(1)]))
      #expect(Self.new(.appendMissingElements([]), .string("q")) == .array([]))
      #expect(Self.new(.appendMissingElements([]), .array([.integer(1)])) == .array([.integer(1)]))
      #expect(
        Self.new(.appendMissingElements([.map(["x": .double(1)]), .map(["x": .integer(2)])]), .array([.map(["x": .integer(1)])]))
          == .array([.map(["x": .integer(1)]), .map(["x": .integer(2)])]))
      #expect(Self.new(.appendMissingElements([.double(-0.0), .integer(0)]), .array([.double(0)])) == .array([.double(0)]))
      // The emulator even nests an array this way, which a plain write would reject.
      #expect(Self.new(.appendMissingElements([.array([.integer(1)])]), nil) == .array([.array([.integer(1)])]))

      let many = Value.array([.integer(1), .double(1), .integer(2), .null, nan, .string("x"), .integer(1)])
      #expect(Self.apply(.removeAllFromArray([.integer(1), .null, nan]), many) == (.array([.integer(2), .string("x")]), .null))
      #expect(Self.new(.removeAllFromArray([.integer(1)]), .string("x")) == .array([]))
      #expect(Self.new(.removeAllFromArray([.integer(1)]), nil) == .array([]))
      let maps = Value.array([.map(["x": .integer(1)]), .map(["x": .integer(1), "y": .integer(2)])])
      #expect(Self.new(.removeAllFromArray([.map(["x": .double(1)])]), maps) == .array([.map(["x": .integer(1), "y": .integer(2)])]))
    }

    @Test("server timestamp is the request time truncated to milliseconds")
    func serverTimestamp() {
      let expected = Value.timestamp(Timestamp(seconds: 1_790_000_000, nanoseconds: 354_000_000))
      #expect(Self.apply(.serverTimestamp, .integer(1)) == (expected, expected))
    }

    @Test("operands of increment, maximum and minimum must be numbers")
    func validation() throws {
      for kind in [FieldTransform.Kind.increment(.string("a")), .maximum(.string("a")), .minimum(.map([:]))] {
        #expect(throws: MockError.invalidArgument("Input must be int64 or double.")) { try TransformEngine.validate(kind) }
      }
      try TransformEngine.validate(.increment(.double(1)))
      try TransformEngine.validate(.appendMissingElements([.string("a")]))
    }

    @Test("FieldMap get, set and remove")
    func fieldMap() {
      var fields: [String: Value] = ["a": .map(["b": .integer(1)]), "c": .integer(5)]
      #expect(FieldMap.get(fields, ["a", "b"]) == .integer(1))
      #expect(FieldMap.get(fields, ["c", "d"]) == nil)
      #expect(FieldMap.get(fields, []) == nil)
      FieldMap.remove(&fields, ["a", "b"])
      FieldMap.remove(&fields, ["c", "d"])
      FieldMap.remove(&fields, ["e", "f"])
      // An emptied parent stays as an empty map; paths through non-maps are left alone.
      #expect(fields == ["a": .map([:]), "c": .integer(5)])
      FieldMap.set(&fields, ["c", "d"], .integer(1))
      FieldMap.set(&fields, ["m", "a", "b"], .null)
      FieldMap.set(&fields, ["a", "x.y"], .boolean(true))
      #expect(fields == ["a": .map(["x.y": .boolean(true)]), "c": .map(["d": .integer(1)]), "m": .map(["a": .map(["b": .null])])])
      FieldMap.set(&fields, [], .null)
      FieldMap.remove(&fields, ["m"])
      #expect(fields.keys.sorted() == ["a", "c"])
    }
  }
}

extension Value {
  fileprivate var isNegativeZero: Bool {
    if case .double(let d) = self { return d == 0 && d.sign == .minus }
    return false
  }
}
