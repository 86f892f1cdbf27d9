import FirestoreWire
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
    #expect(throws: FirestoreError.self) { try WriteBuilder.set(ref, ["big": UInt64.max], merge: .none) }
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
