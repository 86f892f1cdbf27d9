import FirestoreWire
import Foundation
import Testing

@testable import FirestoreClient

/// Values as the Apple SDK hands them out: every number and boolean in `data()`, `get(_:)`
/// and nested maps and arrays is an `NSNumber`, and each cast a ported program may use on
/// it behaves as on Apple platforms (Foundation bridges `NSNumber` the same way on Linux).
@Suite("Values as the Apple SDK returns them")
struct AppleValuesTests {
  private let db = Offline.noNetwork().0

  private func snapshot(_ fields: [String: Value]) -> DocumentSnapshot {
    let ref = db.document("c/d")
    return DocumentSnapshot(reference: ref, document: Document(name: ref.name, fields: fields), readTime: nil)
  }

  private let sample: [String: Value] = [
    "int": .integer(42), "one": .integer(1), "zero": .integer(0), "two": .integer(2), "big": .integer(Int64.max),
    "negative": .integer(-7), "double": .double(2.5), "whole": .double(3.0), "yes": .boolean(true), "no": .boolean(false),
    "nested": .map(["n": .integer(5), "deeper": .map(["d": .double(0.25)])]), "list": .array([.integer(1), .integer(2), .integer(3)]),
    "mixed": .array([.integer(1), .double(1.5), .boolean(true)]),
  ]

  @Test("integers, doubles and booleans are NSNumber in data(), get(_:) and the subscript")
  func numbersAreNSNumber() throws {
    let s = snapshot(sample)
    let data = try #require(s.data())
    for key in ["int", "double", "yes", "big"] {
      #expect(data[key] is NSNumber, "data()[\(key)]")
      #expect(s.get(key) is NSNumber, "get(\(key))")
      #expect(s[key] is NSNumber, "subscript \(key)")
    }
    #expect((data["nested"] as? [String: Any])?["n"] is NSNumber)
    #expect(s.get("nested.deeper.d") is NSNumber)
    #expect((data["list"] as? [Any])?.allSatisfy { $0 is NSNumber } == true)
  }

  @Test("an integer casts to every integer type it fits, to Double and to NSNumber")
  func integerCasts() {
    let s = snapshot(sample)
    #expect(s.get("int") as? Int == 42)
    #expect(s.get("int") as? Int64 == 42)
    #expect(s.get("int") as? Int32 == 42)
    #expect(s.get("int") as? Int8 == 42)
    #expect(s.get("int") as? Int16 == 42)
    #expect(s.get("int") as? UInt8 == 42)
    #expect(s.get("int") as? UInt16 == 42)
    #expect(s.get("int") as? UInt32 == 42)
    #expect(s.get("int") as? UInt64 == 42)
    #expect(s.get("int") as? UInt == 42)
    #expect(s.get("int") as? String == nil)
    #expect(s.get("int") as? Double == 42.0)
    #expect(s.get("int") as? Float == 42.0)
    #expect((s.get("int") as? NSNumber)?.int64Value == 42)
    #expect(s.get("negative") as? Int64 == -7)
    #expect(s.get("negative") as? UInt == nil, "a negative number does not fit an unsigned type")
    #expect(s.get("big") as? Int64 == Int64.max)
    #expect(s.get("big") as? Int32 == nil, "Int64.max does not fit in 32 bits")
  }

  @Test("a double casts to Double and Float, and to an integer type only when whole")
  func doubleCasts() {
    let s = snapshot(sample)
    #expect(s.get("double") as? Double == 2.5)
    #expect(s.get("double") as? Float == 2.5)
    #if canImport(Darwin)
      #expect(s.get("double") as? CGFloat == 2.5)
    #else
      // The one cast that differs: Foundation on Linux does not bridge NSNumber to CGFloat.
      #expect(s.get("double") as? CGFloat == nil)
    #endif
    #expect(s.get("double") as? Int == nil)
    #expect(s.get("whole") as? Int == 3)
    #expect(s.get("whole") as? Int64 == 3)
    #expect((s.get("double") as? NSNumber)?.doubleValue == 2.5)
  }

  @Test("a boolean casts to Bool (and, as on Apple platforms, to 1 or 0); 0 and 1 cast to Bool, 2 does not")
  func booleanCasts() {
    let s = snapshot(sample)
    #expect(s.get("yes") as? Bool == true)
    #expect(s.get("no") as? Bool == false)
    #expect(s.get("yes") as? Int == 1)
    #expect(s.get("no") as? Int == 0)
    // The same as NSNumber bridging on Apple platforms, which the Apple SDK's NSNumbers go through.
    #expect(s.get("one") as? Bool == true)
    #expect(s.get("zero") as? Bool == false)
    #expect(s.get("two") as? Bool == nil)
    #expect(NumberBridge.isBoolean(s.get("yes") as! NSNumber))
    #expect(!NumberBridge.isBoolean(s.get("one") as! NSNumber))
  }

  @Test("arrays and maps of numbers cast to typed collections")
  func collectionCasts() {
    let s = snapshot(sample)
    #expect(s.get("list") as? [Int] == [1, 2, 3])
    #expect(s.get("list") as? [Int64] == [1, 2, 3])
    #expect(s.get("list") as? [Double] == [1, 2, 3])
    #expect(s.get("list") as? [NSNumber] == [1, 2, 3])
    #expect((s.get("nested") as? [String: Any])?["n"] as? Int == 5)
    #expect(s.get("mixed") as? [Int] == nil, "1.5 does not fit an Int")
  }

  @Test("a counter read with `as? Int64` and written back increments, as a ported transaction does")
  func counterReadWrite() throws {
    var fields: [String: Value] = ["count": .integer(0)]
    for _ in 0..<3 {
      let current = snapshot(fields).get("count") as? Int64 ?? 0
      let write = try WriteBuilder.set(db.document("c/d"), ["count": current + 1], merge: .none)
      guard case .update(let document) = write.operation else { return }
      fields = document.fields
    }
    #expect(fields["count"] == .integer(3))
  }

  @Test("data() written back is stored as it was read: integers stay integers, doubles doubles, booleans booleans")
  func dataRoundTrips() throws {
    let data = try #require(snapshot(sample).data())
    let write = try WriteBuilder.set(db.document("c/d"), data, merge: .none)
    guard case .update(let document) = write.operation else {
      Issue.record("not an update")
      return
    }
    #expect(document.fields == sample)
  }

  @Test("NSNumbers written by hand are read by kind: an unsigned value beyond Int64 is refused, naming the field")
  func writingNSNumbers() throws {
    let ref = db.document("c/d")
    let write = try WriteBuilder.set(
      ref, ["b": NSNumber(value: true), "i": NSNumber(value: 7), "d": NSNumber(value: 7.0), "f": NSNumber(value: Float(0.5))],
      merge: .none)
    guard case .update(let document) = write.operation else { return }
    #expect(document.fields == ["b": .boolean(true), "i": .integer(7), "d": .double(7), "f": .double(0.5)])
    let error = #expect(throws: FirestoreError.self) {
      _ = try WriteBuilder.set(ref, ["u": NSNumber(value: UInt64.max)], merge: .none)
    }
    #expect(error?.code == .invalidArgument)
    #expect(error?.message.contains("\"u\"") == true)
  }

  @Test("the Codable path reads Swift values: a boolean does not decode as 1, nor 1 as true")
  func codableIsStrict() throws {
    struct Flags: Decodable {
      var yes: Bool
      var one: Int
    }
    let s = snapshot(sample)
    let flags = try s.data(as: Flags.self)
    #expect(flags.yes && flags.one == 1)
    struct Wrong: Decodable { var one: Bool }
    let error = #expect(throws: FirestoreError.self) { _ = try s.data(as: Wrong.self) }
    #expect(error?.message.contains("expected Bool but found Int 1") == true, "\(String(describing: error))")
    // Decoding data() (NSNumbers) by hand reads the same values.
    #expect(try Firestore.Decoder().decode(Flags.self, from: s.data()!).one == 1)
    #expect(throws: FirestoreError.self) { _ = try Firestore.Decoder().decode(Wrong.self, from: s.data()!) }
  }

  @Test("aggregation results are NSNumber too; value(for:) keeps the wire value")
  func aggregationValues() throws {
    let query = AggregateQuery(query: db.collection("c"), aggregations: [.count(), .sum("x")])
    let snapshot = AggregateQuerySnapshot(query: query, values: [.count(): .integer(3), .sum("x"): .double(4.0)], readTime: nil)
    #expect(snapshot.count == 3)
    #expect(snapshot.count.intValue == 3)
    #expect(snapshot.get(.sum("x")) as? Double == 4.0)
    #expect(snapshot.get(.sum("x")) as? Int == 4)
    #expect(snapshot.value(for: .sum("x")) == .double(4.0))
    #expect(snapshot.get(.average("x")) == nil)
  }
}
