import FirestoreWire
import Foundation
import Testing

@testable import FirestoreClient

@Suite("Write lowering")
struct WriteBuilderTests {
  let db = Offline.noNetwork().0

  @Test("a merging set masks leaf paths and deletes, not transforms")
  func mergeMask() throws {
    let write = try WriteBuilder.set(
      db.document("a/b"),
      [
        "m": ["x": 1, "gone": FieldValue.delete(), "ts": FieldValue.serverTimestamp()] as [String: any Sendable],
        "e": [String: any Sendable](),
      ],
      merge: .all)
    #expect(Set(write.updateMask ?? []) == ["m.x", "m.gone", "e"])
    #expect(write.updateTransforms == [FieldTransform(fieldPath: "m.ts", kind: .serverTimestamp)])
    guard case .update(let doc) = write.operation else {
      Issue.record("not an update")
      return
    }
    #expect(doc.fields == ["m": .map(["x": .integer(1)]), "e": .map([:])])
  }

  @Test("updateData masks its keys, requires existence and quotes paths")
  func update() throws {
    let write = try WriteBuilder.update(
      db.document("a/b"), try WriteBuilder.fieldPaths(["a.b": 1, "c": FieldValue.delete(), "n": FieldValue.increment(1)]), precondition: nil
    )
    #expect(write.updateMask == ["a.b", "c"])
    #expect(write.currentDocument == .exists(true))
    #expect(write.updateTransforms == [FieldTransform(fieldPath: "n", kind: .increment(.integer(1)))])
    let quoted = try WriteBuilder.update(db.document("a/b"), [FieldPath(["x.y", "z"]): true], precondition: nil)
    #expect(quoted.updateMask == ["`x.y`.z"])
  }

  @Test("every accepted kind reads as its value, bare, in a typed array or map, and wrapped in an optional")
  func acceptedKinds() throws {
    let date = Date(timeIntervalSince1970: 1_700_000_000.5)
    let stamp = Timestamp(seconds: 1_700_000_000, nanoseconds: 500_000_000)
    let kinds: [(any Sendable, Value)] = [
      (NSNull(), .null),
      (true, .boolean(true)),
      (NSNumber(value: 7), .integer(7)),
      (Int8(-3), .integer(-3)),
      (UInt32(9), .integer(9)),
      (Float(1.5), .double(1.5)),
      ("text", .string("text")),
      ("sub"[...], .string("sub")),
      (Data([1, 2]), .bytes(Data([1, 2]))),
      (date, .timestamp(stamp)),
      (stamp, .timestamp(stamp)),
      (GeoPoint(latitude: 1, longitude: 2), .geoPoint(GeoPoint(latitude: 1, longitude: 2))),
      (["a", "b"], .array([.string("a"), .string("b")])),
      ([1, 2] as [Int]?, .array([.integer(1), .integer(2)])),
      (nil as [Int]?, .null),
      ([NSNull(), true] as [any Sendable], .array([.null, .boolean(true)])),
      (["k": 1] as [String: Int], .map(["k": .integer(1)])),
      (["k": NSNull()] as [String: NSNull]?, .map(["k": .null])),
      (Value.array([.string("wire")]), .array([.string("wire")])),
    ]
    for (raw, expected) in kinds {
      let write = try WriteBuilder.set(db.document("a/b"), ["f": raw], merge: .none)
      guard case .update(let document) = write.operation else {
        Issue.record("not an update")
        return
      }
      #expect(document.fields["f"] == expected, "\(type(of: raw))")
    }
  }

  @Test("sentinel misuse is rejected naming the field")
  func sentinelMisuse() {
    let ref = db.document("a/b")
    #expect(throws: FirestoreError.self) {
      try WriteBuilder.set(ref, ["a": [FieldValue.serverTimestamp()] as [any Sendable]], merge: .none)
    }
    #expect(throws: FirestoreError.self) {
      try WriteBuilder.update(ref, [FieldPath(["m"]): ["x": FieldValue.delete()] as [String: any Sendable]], precondition: nil)
    }
    #expect(throws: FirestoreError.self) {
      try WriteBuilder.update(ref, [FieldPath(["a"]): 1, FieldPath(["a", "b"]): 2], precondition: nil)
    }
    #expect(throws: FirestoreError.self) { try WriteBuilder.set(ref, ["__x__": 1], merge: .none) }
    #expect(throws: FirestoreError.self) { try WriteBuilder.set(ref, ["": 1], merge: .none) }
    #expect(throws: FirestoreError.self) { try WriteBuilder.set(ref, ["a": [[1]] as [any Sendable]], merge: .none) }
    #expect(throws: FirestoreError.self) { try WriteBuilder.set(ref, ["a": [["x"]] as [any Sendable]], merge: .none) }
    #expect(throws: FirestoreError.self) { try WriteBuilder.set(ref, ["big": UInt64.max], merge: .none) }
  }

  @Test("the field an error or a transform names is the value's own, whatever siblings were read before it")
  func pathsAmongSiblings() throws {
    struct Opaque: Sendable {}
    let ref = db.document("a/b")
    let siblings: [String: any Sendable] = Dictionary(
      uniqueKeysWithValues: (0..<8).map { ("s\($0)", ["x": [1, 2]] as [String: any Sendable] as any Sendable) })
    func error(_ data: [String: any Sendable]) -> String {
      (#expect(throws: FirestoreError.self) { try WriteBuilder.set(ref, data, merge: .none) })?.message ?? ""
    }
    var data: [String: any Sendable] = siblings
    data["m"] = siblings.merging(["bad": Opaque()]) { a, _ in a }
    #expect(error(data).contains("field \"m.bad\" has unsupported type"))
    data["m"] = siblings.merging(["list": [1, 2, Opaque()] as [any Sendable]]) { a, _ in a }
    #expect(error(data).contains("field \"m.list.[2]\" has unsupported type"))
    data["m"] = ["list": [1, FieldValue.serverTimestamp()] as [any Sendable]]
    #expect(error(data).contains("(field \"m.list.[1]\")"))
    data["m"] = siblings.merging(["at": FieldValue.serverTimestamp()]) { a, _ in a }
    let write = try WriteBuilder.set(ref, data, merge: .all)
    #expect(write.updateTransforms == [FieldTransform(fieldPath: "m.at", kind: .serverTimestamp)])
    #expect(write.updateMask?.count == 16, "one leaf per sibling map, twice")
    #expect(write.updateMask?.contains("m.s3.x") == true && write.updateMask?.contains("s7.x") == true)
  }

  @Test("idempotency decides whether a failed commit may be retried")
  func idempotency() throws {
    let ref = db.document("a/b")
    #expect(WriteBuilder.isIdempotent([try WriteBuilder.set(ref, ["a": 1], merge: .all)]))
    #expect(WriteBuilder.isIdempotent([try WriteBuilder.update(ref, [FieldPath(["t"]): FieldValue.serverTimestamp()], precondition: nil)]))
    #expect(!WriteBuilder.isIdempotent([try WriteBuilder.update(ref, [FieldPath(["n"]): FieldValue.increment(1)], precondition: nil)]))
    #expect(!WriteBuilder.isIdempotent([try WriteBuilder.set(ref, ["a": 1], merge: .none, precondition: .exists(false))]))
    #expect(!WriteBuilder.isIdempotent([try WriteBuilder.delete(ref, precondition: .exists(true))]))
  }
}
