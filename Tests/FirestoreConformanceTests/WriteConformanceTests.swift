import FirestoreTestSupport
import FirestoreWire
import Foundation
import Testing

@testable import FirestoreClient

@Suite("Conformance: writes")
struct WriteConformanceTests {
  @Test("setData replaces, merge keeps other fields, mergeFields writes only listed fields", arguments: Backend.all)
  func setVariants(_ backend: Backend) async throws {
    let ref = backend.collection().document("d")
    let first = try await ref.setData(["a": 1, "b": ["x": 1, "y": 2] as [String: any Sendable], "c": "keep"])
    try await ref.setData(["b": ["x": 10] as [String: any Sendable], "d": true], merge: true)
    var fields = try #require(try await ref.getDocument().fields)
    #expect(fields == ["a": .integer(1), "b": .map(["x": .integer(10), "y": .integer(2)]), "c": .string("keep"), "d": .boolean(true)])

    try await ref.setData(["a": 2, "c": "ignored", "b": ["y": 20] as [String: any Sendable]], mergeFields: ["a", "b.y"])
    fields = try #require(try await ref.getDocument().fields)
    #expect(fields["a"] == .integer(2))
    #expect(fields["c"] == .string("keep"))
    #expect(fields["b"] == .map(["x": .integer(10), "y": .integer(20)]))

    let replaced = try await ref.setData(["only": true])
    #expect(try await ref.getDocument().fields == ["only": .boolean(true)])
    #expect(replaced.updateTime > first.updateTime)

    let missing = try await #require(throws: FirestoreError.self) {
      try await ref.setData(["a": 1], mergeFields: ["zzz"])
    }
    #expect(missing.code == .invalidArgument && missing.message.contains("zzz"))
  }

  @Test("updateData with dotted paths, FieldPath segments that need quoting, and delete", arguments: Backend.all)
  func updateVariants(_ backend: Backend) async throws {
    let ref = backend.collection().document("u")
    try await ref.setData(["name": "x", "nested": ["keep": 1, "drop": 2] as [String: any Sendable], "gone": true])
    try await ref.updateData([
      "nested.added": 3, "nested.drop": FieldValue.delete(), "gone": FieldValue.delete(),
    ])
    try await ref.updateData([
      FieldPath(["we.ird", "dash-ed"]): "quoted", FieldPath(["back`tick"]): 1, FieldPath(["ünï"]): 2, FieldPath(["sp ace"]): 3,
    ])
    let fields = try #require(try await ref.getDocument().fields)
    #expect(fields["nested"] == .map(["keep": .integer(1), "added": .integer(3)]))
    #expect(fields["gone"] == nil)
    #expect(fields["we.ird"] == .map(["dash-ed": .string("quoted")]))
    #expect(fields["back`tick"] == .integer(1))
    #expect(fields["ünï"] == .integer(2))
    #expect(fields["sp ace"] == .integer(3))
    #expect(fields["name"] == .string("x"))

    let notFound = try await #require(throws: FirestoreError.self) {
      try await backend.collection().document("missing").updateData(["a": 1])
    }
    #expect(notFound.code == .notFound)
    #expect(notFound.httpStatus == 404)
    #expect(notFound.requestMethod == "POST")
    #expect(notFound.requestPath?.hasSuffix("documents:commit") == true)
  }

  @Test("FieldValue.delete() in a plain setData is rejected before sending", arguments: Backend.all)
  func deleteInSetRejected(_ backend: Backend) async throws {
    let error = try await #require(throws: FirestoreError.self) {
      try await backend.collection().document("x").setData(["a": FieldValue.delete()])
    }
    #expect(error.code == .invalidArgument && error.message.contains("\"a\""))
  }

  @Test("create fails with alreadyExists on an existing document", arguments: Backend.all)
  func createOnly(_ backend: Backend) async throws {
    let ref = backend.collection().document("c")
    try await ref.create(["v": 1])
    let error = try await #require(throws: FirestoreError.self) { try await ref.create(["v": 2]) }
    #expect(error.code == .alreadyExists)
    #expect(try await ref.getDocument().get("v") as? Int == 1)
  }

  @Test("delete with and without preconditions", arguments: Backend.all)
  func deletePreconditions(_ backend: Backend) async throws {
    let collection = backend.collection()
    let ref = collection.document("d")
    try await collection.document("never").delete()  // a missing document deletes fine
    let missing = try await #require(throws: FirestoreError.self) {
      try await collection.document("never").delete(precondition: .exists(true))
    }
    #expect(missing.code == .notFound)

    let written = try await ref.setData(["v": 1])
    let stale = try await #require(throws: FirestoreError.self) {
      try await ref.delete(precondition: .updateTime(Timestamp(seconds: written.updateTime.seconds - 10, nanoseconds: 0)))
    }
    #expect(stale.code == .failedPrecondition)
    #expect(try await ref.getDocument().exists)
    try await ref.delete(precondition: .updateTime(written.updateTime))
    #expect(try await ref.getDocument().exists == false)
  }

  @Test("server transforms: timestamp, increment, array union/remove, maximum, minimum", arguments: Backend.all)
  func transforms(_ backend: Backend) async throws {
    let ref = backend.collection().document("t")
    let before = try await ref.setData(["n": 5, "f": 1.0, "tags": ["a", "b"], "hi": 10, "lo": 10, "label": "x"])
    let result = try await ref.updateData([
      "ts": FieldValue.serverTimestamp(),
      "n": FieldValue.increment(2),
      "f": FieldValue.increment(0.5),
      "fresh": FieldValue.increment(Int64(7)),
      "tags": FieldValue.arrayUnion(["b", "c"]),
      "hi": FieldValue.maximum(3),
      "lo": FieldValue.minimum(3),
      "label": FieldValue.maximum(1.5),
    ])
    try await ref.updateData(["tags": FieldValue.arrayRemove(["a"]), "m.deep": FieldValue.serverTimestamp()])
    let snapshot = try await ref.getDocument()
    let fields = try #require(snapshot.fields)
    #expect(fields["n"] == .integer(7))
    #expect(fields["f"] == .double(1.5))
    #expect(fields["fresh"] == .integer(7))
    #expect(fields["tags"] == .array([.string("b"), .string("c")]))
    #expect(fields["hi"] == .integer(10))
    #expect(fields["lo"] == .integer(3))
    #expect(fields["label"] == .double(1.5))
    guard case .timestamp(let ts) = fields["ts"], case .map(let m) = fields["m"], case .timestamp = m["deep"] else {
      Issue.record("server timestamps missing: \(fields)")
      return
    }
    // The server's time of the write: after the commit before it, and no later than its own
    // commit (Firestore takes the commit time; the emulator, on a loaded machine, a moment
    // before it), whatever the machine's load.
    #expect(ts >= before.commitTime && ts <= result.commitTime)
    #expect(result.transformResults.contains(.integer(7)))
  }

  @Test("a batch commits atomically and returns results in order", arguments: Backend.all)
  func batches(_ backend: Backend) async throws {
    let collection = backend.collection()
    let batch = backend.db.batch()
    batch.setData(["v": 1], forDocument: collection.document("a"))
    batch.setData(["w": 2], forDocument: collection.document("b"), merge: true)
    batch.updateData(["v": FieldValue.increment(1)], forDocument: collection.document("a"))
    batch.deleteDocument(collection.document("zzz"))
    let results = try await batch.commit()
    #expect(results.count == 4)
    #expect(results.allSatisfy { $0.commitTime == results[0].commitTime })
    #expect(try await collection.document("a").getDocument().get("v") as? Int == 2)
    let again = try await #require(throws: FirestoreError.self) { try await batch.commit() }
    #expect(again.code == .invalidArgument)

    // One failing precondition aborts the whole batch.
    let failing = backend.db.batch()
    failing.setData(["new": true], forDocument: collection.document("c"))
    failing.create(["v": 9], forDocument: collection.document("a"))
    let error = try await #require(throws: FirestoreError.self) { try await failing.commit() }
    #expect(error.code == .alreadyExists)
    #expect(try await collection.document("c").getDocument().exists == false)

    // An invalid write is reported by commit, and nothing is sent.
    let invalid = backend.db.batch()
    invalid.setData(["ok": 1], forDocument: collection.document("d"))
    invalid.setData(["bad": GeoPoint(latitude: 0, longitude: 200)], forDocument: collection.document("e"))
    #expect(try await #require(throws: FirestoreError.self) { try await invalid.commit() }.code == .invalidArgument)
    #expect(try await collection.document("d").getDocument().exists == false)
  }

  @Test("a batch larger than its parts written ahead commits every write in order, in both commit forms", arguments: Backend.all)
  func largeBatches(_ backend: Backend) async throws {
    let collection = backend.collection()
    // Two whole parts and a rest, of every kind of write, several to each document, so
    // that they only end as expected when applied in order.
    let count = 2 * WriteRecord.partSize + 7
    let batch = backend.db.batch()
    var expected: [String: [String: Int]] = [:]
    for i in 0..<count {
      let id = "d\(i % 25)"
      let ref = collection.document(id)
      switch i % 4 {
      case 0:
        batch.setData(["i": i, "text": "line \(i)\n\"quoted\""], forDocument: ref)
        expected[id] = ["i": i]
      case 1:
        batch.setData(["merged": i], forDocument: ref, merge: true)
        expected[id, default: [:]]["merged"] = i
      case 2:
        batch.setData(["i": i, "n": FieldValue.increment(Int64(1))], forDocument: ref)
        expected[id] = ["i": i, "n": 1]
      default:
        // (A delete after a set of the same document in one request is refused.)
        batch.setData([:], forDocument: ref)
        expected[id] = [:]
      }
    }
    batch.deleteDocument(collection.document("never"))
    #expect(try await batch.commit().count == count + 1)
    let stored = try await collection.getDocuments(source: .server).documents
    let found = Dictionary(
      uniqueKeysWithValues: stored.map { document in
        (document.documentID, ["i", "merged", "n"].reduce(into: [String: Int]()) { $0[$1] = document.get($1) as? Int })
      })
    #expect(found == expected)

    // The completion-handler form queues at once, without the text written ahead.
    let queued = backend.db.batch()
    for i in 0..<count { queued.setData(["q": i], forDocument: collection.document("q\(i)")) }
    try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
      queued.commit { error in if let error { done.resume(throwing: error) } else { done.resume() } }
    }
    #expect(try await collection.document("q\(count - 1)").getDocument(source: .server).get("q") as? Int == count - 1)

    // An invalid write after parts were written ahead still stops the whole batch.
    let invalid = backend.db.batch()
    for i in 0..<count { invalid.setData(["v": i], forDocument: collection.document("x\(i)")) }
    invalid.setData(["bad": GeoPoint(latitude: 0, longitude: 200)], forDocument: collection.document("x-bad"))
    #expect(try await #require(throws: FirestoreError.self) { try await invalid.commit() }.code == .invalidArgument)
    #expect(try await collection.document("x0").getDocument(source: .server).exists == false)
  }

  @Test("documents over 1 MiB are rejected before sending", arguments: Backend.all)
  func oversizedDocument(_ backend: Backend) async throws {
    let ref = backend.collection().document("big")
    let error = try await #require(throws: FirestoreError.self) {
      try await ref.setData(["blob": Data(count: 1_048_600)])
    }
    #expect(error.code == .invalidArgument && error.message.contains("1 MiB"))
    try await ref.setData(["blob": Data(count: 1_000_000)])
    #expect(try await ref.getDocument().exists)
  }

  @Test("a reference counts as the name it points to, as the server counts it", arguments: Backend.all)
  func referenceSizes(_ backend: Backend) async throws {
    let ref = backend.collection().document("refs")
    let target = backend.db.document("c/d")
    let refs = 2000
    // Firestore's documentation: a reference is the size of the name it points to, here
    // 2 bytes for "c", 2 for "d" and 16. Counted as whole resource names, the references
    // would add about 100 KB more and the client would refuse this document; the server
    // takes it.
    let each = 20
    let base = DocumentSize.of(name: ref.path, fields: ["refs": .array([]), "blob": .bytes(Data())])
    let blob = Data(count: 1_048_576 - base - refs * each - 100)
    try await ref.setData(["refs": Array(repeating: target, count: refs), "blob": blob])
    #expect(try await ref.getDocument().exists)
    // Ten more references are 100 bytes over: refused before sending.
    let error = try await #require(throws: FirestoreError.self) {
      try await ref.setData(["refs": Array(repeating: target, count: refs + 10), "blob": blob])
    }
    #expect(error.code == .invalidArgument && error.message.contains("1 MiB") && error.requestPath == nil)
  }

  @Test("requests over 10 MiB are rejected before sending; the emulator's own 4 MiB limit is not retried", arguments: Backend.all)
  func oversizedRequests(_ backend: Backend) async throws {
    let c = backend.collection()
    let huge = backend.db.batch()
    for i in 0..<9 { huge.setData(["blob": Data(count: 1_000_000)], forDocument: c.document("h\(i)")) }
    let local = try await #require(throws: FirestoreError.self) { try await huge.commit() }
    #expect(local.code == .invalidArgument && local.message.contains("10 MiB") && local.requestPath == nil)

    let large = backend.db.batch()
    for i in 0..<5 { large.setData(["blob": Data(count: 1_000_000)], forDocument: c.document("l\(i)")) }
    let server = try await #require(throws: FirestoreError.self) { try await large.commit() }
    #expect(server.code == .resourceExhausted && server.httpStatus == 429)
    #expect(try await c.document("l0").getDocument().exists == false)
  }
}
