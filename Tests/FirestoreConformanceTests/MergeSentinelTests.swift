import FirestoreRepositories
import FirestoreTestSupport
import FirestoreWire
import Foundation
import Testing

@testable import FirestoreClient

/// Merges and updates whose data holds maps of sentinels, checked against the stored
/// document on both backends, and the write and cursor validations the official clients
/// make before sending anything. The expected documents are what the official Python
/// client leaves on the same emulator for the same calls.
@Suite("Conformance: merges with sentinels, and client-side write validation")
struct MergeSentinelTests {
  typealias Data = [String: any Sendable]

  /// A sentinel, the value its field starts at, and the value it must leave there.
  struct Case: Sendable, CustomTestStringConvertible {
    let name: String
    let sentinel: FieldValue
    let start: any Sendable
    let expected: Value?
    var testDescription: String { name }

    static let all: [Case] = [
      Case(name: "serverTimestamp", sentinel: FieldValue.serverTimestamp(), start: 0, expected: nil),
      Case(name: "increment", sentinel: FieldValue.increment(2), start: 5, expected: .integer(7)),
      Case(name: "maximum", sentinel: FieldValue.maximum(9), start: 5, expected: .integer(9)),
      Case(name: "minimum", sentinel: FieldValue.minimum(1), start: 5, expected: .integer(1)),
      Case(
        name: "arrayUnion", sentinel: FieldValue.arrayUnion([2, 3]), start: [1, 2],
        expected: .array([.integer(1), .integer(2), .integer(3)])),
      Case(name: "arrayRemove", sentinel: FieldValue.arrayRemove([1]), start: [1, 2], expected: .array([.integer(2)])),
    ]
  }

  /// Checks that `b` kept its other fields and that `b.c` holds what the sentinel leaves.
  private func expectMerged(_ fields: [String: Value]?, _ c: Case, sourceLocation: SourceLocation = #_sourceLocation) {
    guard case .map(let b) = fields?["b"] else {
      Issue.record("b is not a map: \(String(describing: fields))", sourceLocation: sourceLocation)
      return
    }
    #expect(fields?["a"] == .integer(1), sourceLocation: sourceLocation)
    #expect(b["x"] == .integer(1) && b["y"] == .integer(2), "siblings of b.c lost: \(b)", sourceLocation: sourceLocation)
    if let expected = c.expected {
      #expect(b["c"] == expected, sourceLocation: sourceLocation)
    } else if case .timestamp = b["c"] {
    } else {
      Issue.record("b.c is not a timestamp: \(String(describing: b["c"]))", sourceLocation: sourceLocation)
    }
  }

  @Test("the two calls from the report leave what the official client leaves", arguments: Backend.all)
  func reportedSequences(_ backend: Backend) async throws {
    let collection = backend.collection()
    let x = collection.document("x")
    try await x.setData(["b": ["x": 1, "y": 2] as Data])
    try await x.setData(["a": 1, "b": ["c": FieldValue.serverTimestamp()] as Data], merge: true)
    let fields = try #require(try await x.getDocument().fields)
    guard case .map(let b) = fields["b"], case .timestamp = b["c"] else {
      Issue.record("b.c is not a timestamp: \(fields)")
      return
    }
    #expect(fields["a"] == .integer(1))
    #expect(b.count == 3 && b["x"] == .integer(1) && b["y"] == .integer(2))

    let y = collection.document("y")
    try await y.setData(["b": ["x": 1, "c": 5] as Data])
    try await y.setData(["a": 1, "b": ["c": FieldValue.delete()] as Data], merge: true)
    #expect(try await y.getDocument().fields == ["a": .integer(1), "b": .map(["x": .integer(1)])])
  }

  @Test("a merge whose map holds only a sentinel keeps the map's other fields", arguments: Backend.all, Case.all)
  func mergeKeepsSiblings(_ backend: Backend, _ c: Case) async throws {
    let collection = backend.collection()
    let db = backend.db
    let start: Data = ["b": ["x": 1, "y": 2, "c": c.start] as Data]
    let merge: Data = ["a": 1, "b": ["c": c.sentinel] as Data]
    let refs = (0..<5).map { collection.document("d\($0)") }
    for ref in refs { try await ref.setData(start) }

    try await refs[0].setData(merge, merge: true)
    try await db.batch().setData(merge, forDocument: refs[1], merge: true).commit()
    try await db.runTransaction { transaction in
      transaction.setData(merge, forDocument: refs[2], merge: true)
      return ()
    }
    let writer = db.bulkWriter()
    try writer.setData(merge, forDocument: refs[3], merge: true)
    await writer.close()
    // mergeFields naming the map's parent field and the map's own sentinel leaf.
    try await refs[4].setData(merge, mergeFields: ["a", "b.c"])

    for ref in refs { expectMerged(try await ref.getDocument().fields, c) }
  }

  @Test("update with a dotted key to a sentinel keeps the map's other fields; a map value replaces the map", arguments: Backend.all)
  func updateNestedSentinels(_ backend: Backend) async throws {
    let ref = backend.collection().document("u")
    try await ref.setData(["b": ["x": 1, "y": 2, "c": 5] as Data])
    try await ref.updateData(["a": 1, "b.c": FieldValue.increment(2)])
    #expect(try await ref.getDocument().fields == ["a": .integer(1), "b": .map(["x": .integer(1), "y": .integer(2), "c": .integer(7)])])
    // As in every official client, the key `b` stands for the whole field: its new value
    // is the map given, here one whose only entry is a transform.
    try await ref.updateData(["b": ["c": FieldValue.increment(2)] as Data])
    #expect(try await ref.getDocument().fields == ["a": .integer(1), "b": .map(["c": .integer(2)])])
  }

  @Test("an empty map the caller writes under merge replaces the field with an empty map", arguments: Backend.all)
  func mergeEmptyMap(_ backend: Backend) async throws {
    let ref = backend.collection().document("e")
    try await ref.setData(["b": ["x": 1] as Data, "k": true])
    try await ref.setData(["b": Data()], merge: true)
    #expect(try await ref.getDocument().fields == ["b": .map([:]), "k": .boolean(true)])
  }

  /// One call the official clients refuse before sending, and a phrase its message must hold.
  struct Refusal: Sendable, CustomTestStringConvertible {
    let name: String
    let mentions: String
    let call: @Sendable (Firestore) async throws -> Void
    var testDescription: String { name }

    static let all: [Refusal] = [
      Refusal(name: "updateData with no fields", mentions: "needs at least one field") { db in
        try await db.document("c/d").updateData([String: any Sendable]())
      },
      Refusal(name: "updateData by FieldPath with no fields", mentions: "needs at least one field") { db in
        try await db.document("c/d").updateData([FieldPath: any Sendable]())
      },
      Refusal(name: "updateData requiring absence", mentions: "cannot require that the document does not exist") { db in
        try await db.document("c/d").updateData(["a": 1], precondition: .exists(false))
      },
      Refusal(name: "batch updateData with no fields", mentions: "needs at least one field") { db in
        try await db.batch().updateData([String: any Sendable](), forDocument: db.document("c/d")).commit()
      },
      Refusal(name: "mergeFields with one path inside another", mentions: "one lies inside the other") { db in
        try await db.document("c/d").setData(["a": ["b": 1] as Data], mergeFields: ["a", "a.b"])
      },
      Refusal(name: "batch mergeFields with one path inside another", mentions: "one lies inside the other") { db in
        try await db.batch().setData(["a": ["b": 1] as Data], forDocument: db.document("c/d"), mergeFields: ["a.b", "a"]).commit()
      },
      Refusal(name: "delete() outside the merge fields", mentions: "is not covered by mergeFields") { db in
        try await db.document("c/d").setData(["a": 1, "b": FieldValue.delete()], mergeFields: ["a"])
      },
      Refusal(name: "delete() inside a merge field's value", mentions: "lies inside merge field \"h\"") { db in
        try await db.document("c/d").setData(["h": ["g": FieldValue.delete()] as Data], mergeFields: ["h"])
      },
      Refusal(name: "bulk writer delete() outside the merge fields", mentions: "is not covered by mergeFields") { db in
        let writer = db.bulkWriter()
        do {
          try writer.setData(["a": 1, "b": FieldValue.delete()], forDocument: db.document("c/d"), mergeFields: ["a"])
        } catch {
          await writer.close()
          throw error
        }
        await writer.close()
      },
      Refusal(name: "document cursor from another collection", mentions: "which is not in the query's collection c") { db in
        let ref = db.document("other/d")
        let snapshot = DocumentSnapshot(reference: ref, document: Document(name: ref.name, fields: ["a": .integer(1)]), readTime: nil)
        _ = try await db.collection("c").order(by: "a").start(afterDocument: snapshot).getDocuments()
      },
      Refusal(name: "reference cursor from another collection", mentions: "which is not in the query's collection c") { db in
        _ = try await db.collection("c").order(by: FieldPath.documentID()).start(at: [db.document("other/d")]).getDocuments()
      },
    ]
  }

  @Test("refused before sending, with a message naming the problem", arguments: Backend.all, Refusal.all)
  func refused(_ backend: Backend, _ refusal: Refusal) async throws {
    let (db, counter) = backend.counted()
    let error = try await #require(throws: FirestoreError.self) { try await refusal.call(db) }
    #expect(error.code == .invalidArgument)
    #expect(error.message.contains(refusal.mentions), "\(error.message)")
    #expect(counter.requests.isEmpty, "sent \(counter.requests.map(\.path))")
  }

  @Test("a transaction whose write is refused sends no commit", arguments: Backend.all)
  func transactionRefused(_ backend: Backend) async throws {
    let (db, counter) = backend.counted()
    let ref = db.collection(backend.collection().path).document("t")
    let error = try await #require(throws: FirestoreError.self) {
      try await db.runTransaction { transaction in
        transaction.updateData([String: any Sendable](), forDocument: ref)
        return ()
      }
    }
    #expect(error.code == .invalidArgument && error.message.contains("needs at least one field"), "\(error.message)")
    #expect(counter.count(matching: ":commit") == 0, "sent \(counter.requests.map(\.path))")
  }
}
