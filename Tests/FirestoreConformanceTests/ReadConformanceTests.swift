import FirestoreTestSupport
import FirestoreWire
import Foundation
import Testing

@testable import FirestoreClient

@Suite("Conformance: reads")
struct ReadConformanceTests {
  @Test("a missing document is a snapshot with exists == false, not an error", arguments: Backend.all)
  func missingDocument(_ backend: Backend) async throws {
    let snapshot = try await backend.collection().document("nope").getDocument()
    #expect(snapshot.exists == false)
    #expect(snapshot.data() == nil)
    #expect(snapshot.documentID == "nope")
  }

  @Test("getAll keeps request order, reports missing, handles duplicates, masks and splits", arguments: Backend.all)
  func getAll(_ backend: Backend) async throws {
    let collection = backend.collection()
    let batch = backend.db.batch()
    for i in 0..<7 { batch.setData(["i": i, "name": "doc\(i)", "extra": true], forDocument: collection.document("d\(i)")) }
    try await batch.commit()
    let refs = [
      collection.document("d5"), collection.document("missing"), collection.document("d1"), collection.document("d5"),
      collection.document("d0"), collection.document("d6"), collection.document("d3"),
    ]
    // A chunk size of 2 forces four requests; order must survive the split.
    let snapshots = try await backend.db.batchGet(refs, fieldMask: ["name"], consistency: nil, chunkSize: 2)
    #expect(snapshots.map(\.documentID) == ["d5", "missing", "d1", "d5", "d0", "d6", "d3"])
    #expect(snapshots.map(\.exists) == [true, false, true, true, true, true, true])
    #expect(snapshots[0].fields == ["name": .string("doc5")])
    let whole = try await backend.db.getAll(refs)
    #expect(whole[2].get("i") as? Int == 1 && whole[2].get("extra") as? Bool == true)
    let existence = try await backend.db.getAll([collection.document("d2")], fieldMask: [])
    #expect(existence[0].exists && existence[0].fields == [:])
  }

  @Test("reads at a past readTime see the old data", arguments: Backend.all)
  func readTime(_ backend: Backend) async throws {
    let ref = backend.collection().document("r")
    let firstVersion = try await ref.writeTwoVersions()
    #expect(try await ref.getDocument(readTime: firstVersion).get("v") as? Int == 1)
    #expect(try await backend.db.getAll([ref], readTime: firstVersion)[0].get("v") as? Int == 1)
    #expect(try await ref.getDocument().get("v") as? Int == 2)
  }

  @Test("listDocuments pages through a collection and can show missing documents", arguments: Backend.all)
  func listDocuments(_ backend: Backend) async throws {
    let collection = backend.collection()
    let batch = backend.db.batch()
    for i in 0..<5 { batch.setData(["i": i], forDocument: collection.document("d\(i)")) }
    batch.setData(["x": 1], forDocument: collection.document("ghost").collection("sub").document("s"))
    try await batch.commit()
    var all: [String] = []
    for try await ref in collection.listDocuments(pageSize: 2) { all.append(ref.documentID) }
    #expect(all == ["d0", "d1", "d2", "d3", "d4", "ghost"])
    var present: [String] = []
    for try await ref in collection.listDocuments(pageSize: 5, showMissing: false) { present.append(ref.documentID) }
    #expect(present == ["d0", "d1", "d2", "d3", "d4"])
    var empty = 0
    for try await _ in backend.collection().listDocuments() { empty += 1 }
    #expect(empty == 0)
  }

  @Test("listCollections at the root and under a document (even a missing one)", arguments: Backend.all)
  func listCollections(_ backend: Backend) async throws {
    let db = backend.firestore(database: "lists-\(AutoID.make().prefix(6).lowercased())")
    try await db.document("alpha/a").setData(["x": 1])
    try await db.document("beta/b/inner/i").setData(["x": 1])
    try await db.document("beta/b/other/o").setData(["x": 1])
    #expect(try await db.listCollections().map(\.collectionID) == ["alpha", "beta"])
    #expect(try await db.document("beta/b").listCollections().map(\.path) == ["beta/b/inner", "beta/b/other"])
    #expect(try await db.document("alpha/a").listCollections().isEmpty)
  }

  /// As the Python client's `collections(read_time=)` and `list_documents(read_time=)`.
  @Test("listCollections and listDocuments at a past readTime list what there was then", arguments: Backend.all)
  func listingsAtReadTime(_ backend: Backend) async throws {
    let db = backend.firestore(database: "lists-\(AutoID.make().prefix(6).lowercased())")
    let then = try await db.document("alpha/a").setData(["x": 1]).updateTime
    try await db.document("alpha/a/inner/i").setData(["x": 1])
    try await db.document("alpha/b").setData(["x": 1])
    try await db.document("beta/b").setData(["x": 1])
    #expect(try await db.listCollections(readTime: then).map(\.collectionID) == ["alpha"])
    #expect(try await db.listCollections().map(\.collectionID) == ["alpha", "beta"])
    #expect(try await db.document("alpha/a").listCollections(readTime: then).isEmpty)
    #expect(try await db.document("alpha/a").listCollections().map(\.collectionID) == ["inner"])
    var listed: [String] = []
    for try await ref in db.collection("alpha").listDocuments(pageSize: 1, readTime: then) { listed.append(ref.documentID) }
    #expect(listed == ["a"])
  }
}
