import FirestoreTestSupport
import FirestoreWire
import Foundation
import Testing

@testable import FirestoreClient

/// `recursiveDelete`, on the mock and the emulator alike: whole trees go, neighbours stay.
@Suite("Conformance: recursive delete")
struct RecursiveDeleteConformanceTests {
  /// Writes `paths` (empty documents) through an unthrottled bulk writer.
  private func write(_ paths: [String], _ db: Firestore) async throws {
    let writer = db.bulkWriter(options: .unlimited)
    let operations = try paths.map { try writer.setData(["p": $0], forDocument: db.document($0)) }
    await writer.close()
    for operation in operations { _ = try await operation.result() }
  }

  /// The paths of every document below `parent` (a document path, or "" for the root),
  /// found by a query over all collections.
  private func remaining(under parent: String, _ db: Firestore) async throws -> [String] {
    let snapshot = try await Query(
      firestore: db, parent: ResourcePath(segments: parent.isEmpty ? [] : parent.slashSegments), collectionID: "", allDescendants: true
    ).getDocuments()
    return snapshot.documents.map(\.reference.path)
  }

  @Test("a tree of 3 levels and 5,000 documents is deleted whole; documents beside it stay", arguments: Backend.all)
  func largeTree(_ backend: Backend) async throws {
    let db = backend.isolatedFirestore()
    let base = db.collection("tree").document("root")
    let tree = base.collection("c").path
    // 200 documents, each with 4 below it, each of those with 5 below it: 200 + 800 + 4,000.
    var paths: [String] = []
    for i in 0..<200 {
      let level1 = "\(tree)/d\(i)"
      paths.append(level1)
      for j in 0..<4 {
        let level2 = "\(level1)/s/e\(j)"
        paths.append(level2)
        for k in 0..<5 { paths.append("\(level2)/t/f\(k)") }
      }
    }
    #expect(paths.count == 5000)
    // Neighbours the collection's bounds must not reach: names that sort right after "c",
    // the parent document itself, and a document of the tree's collection group elsewhere.
    let neighbours = ["\(base.path)/c0/x", "\(base.path)/cc/x", "\(base.path)/c\u{1}/x", base.path, "\(base.path)/other/o/c/x"]
    try await write(paths + neighbours, db)

    let writer = db.bulkWriter(options: .unlimited)
    let deleted = Counter()
    writer.onWriteResult { _, _ in deleted.increment() }
    try await db.recursiveDelete(db.collection(tree), bulkWriter: writer)
    await writer.close()
    #expect(deleted.value == 5000)
    #expect(
      try await remaining(under: tree.slashSegments.dropLast().joined(separator: "/"), db).sorted()
        == neighbours.filter { $0 != base.path }.sorted())
    #expect(try await db.collectionGroup("t").count.getAggregation().count == 0)
    #expect(try await base.getDocument().exists)
  }

  @Test("a document goes with everything below it, also under missing documents; its siblings stay", arguments: Backend.all)
  func documentSubtree(_ backend: Backend) async throws {
    let db = backend.db
    let c = backend.collection()
    let doomed = c.document("a")
    let paths = [
      doomed.path, "\(doomed.path)/s/1", "\(doomed.path)/s/1/u/2", "\(doomed.path)/ghost/missing/deep/3",
      "\(c.path)/b", "\(c.path)/b/s/1", "\(c.path)/a0",
    ]
    try await write(paths, db)
    try await db.recursiveDelete(doomed, bulkWriter: db.bulkWriter(options: .unlimited))
    let left = try await remaining(under: "", db).filter { $0.hasPrefix(c.path + "/") }
    #expect(left.sorted() == ["\(c.path)/a0", "\(c.path)/b", "\(c.path)/b/s/1"])
    // Deleting what is not there succeeds.
    try await db.recursiveDelete(doomed, bulkWriter: db.bulkWriter(options: .unlimited))
    try await db.recursiveDelete(c.document("never").collection("x"))
  }

  @Test("a reference of another instance, or a closed writer, fails before anything is deleted", arguments: Backend.all)
  func refusals(_ backend: Backend) async throws {
    let db = backend.db
    let c = backend.collection()
    try await c.document("keep").setData(["k": 1])
    let other = backend.firestore()
    let foreign = await #expect(throws: FirestoreError.self) { try await db.recursiveDelete(other.document(c.path + "/keep")) }
    #expect(foreign?.code == .invalidArgument)
    let writer = other.bulkWriter()
    let wrongWriter = await #expect(throws: FirestoreError.self) { try await db.recursiveDelete(c, bulkWriter: writer) }
    #expect(wrongWriter?.code == .invalidArgument)
    let closed = db.bulkWriter()
    await closed.close()
    let error = await #expect(throws: FirestoreError.self) { try await db.recursiveDelete(c, bulkWriter: closed) }
    #expect(error?.code == .failedPrecondition)
    let bad = await #expect(throws: FirestoreError.self) { try await db.recursiveDelete(db.document("a/b/c")) }
    #expect(bad?.code == .invalidArgument && bad?.requestPath == nil)
    #expect(try await c.document("keep").getDocument().exists)
  }
}
