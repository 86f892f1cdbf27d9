import FirestoreTestSupport
import FirestoreWire
import Foundation
import Testing

@testable import FirestoreClient

/// `CollectionGroup.getPartitions` (`partitionQuery`). The emulator does not implement the
/// method: it answers HTTP 501 `UNIMPLEMENTED` ("Method
/// google.firestore.v1.Firestore/PartitionQuery is unimplemented", verified with curl);
/// the mock follows production's documentation. Each case runs on both.
@Suite("Conformance: partitioned reads")
struct PartitionConformanceTests {
  /// A collection group ID no other test uses.
  private func groupID(_ hint: String = #function) -> String {
    "\(hint.filter(\.isLetter).prefix(20))\(AutoID.make().prefix(6))"
  }

  @Test("the partitions of a 10,000-document group cover it exactly once, in order", .differsByBackend, arguments: Backend.all)
  func coverage(_ backend: Backend) async throws {
    let db = backend.isolatedFirestore()
    let group = groupID()
    if backend.reachesEmulator {
      let error = await #expect(throws: FirestoreError.self) { try await db.collectionGroup(group).getPartitions(8) }
      #expect(error?.code == .unimplemented && error?.httpStatus == 501, "\(String(describing: error))")
      #expect(error?.message.contains("PartitionQuery is unimplemented") == true)
      return
    }
    // 10,000 documents of the group: top level, under many parents (some missing), deeper.
    var paths: [String] = []
    for i in 0..<2_000 { paths.append("\(group)/t\(i)") }
    for i in 0..<7_000 { paths.append("parents/p\(i % 350)/\(group)/n\(i)") }
    for i in 0..<1_000 { paths.append("a/b\(i % 10)/c/d/\(group)/deep\(i)") }
    // Documents of other groups, which no partition may return.
    paths += ["\(group)x/o1", "parents/p1/other/o2", "\(group)/t1/sub/o3"]
    let writer = db.bulkWriter(options: .unlimited)
    let operations = try paths.map { try writer.setData([:], forDocument: db.document($0)) }
    await writer.close()
    for operation in operations { _ = try await operation.result() }

    let partitions = try await db.collectionGroup(group).getPartitions(8)
    #expect(partitions.count == 8, "the mock splits a large group as asked")
    #expect(partitions.first?.startAt == nil && partitions.last?.endBefore == nil)
    for (a, b) in zip(partitions, partitions.dropFirst()) { #expect(a.endBefore == b.startAt) }
    var seen: [String] = []
    for partition in partitions {
      let names = try await partition.toQuery().selectDocumentIDs().getDocuments().documents.map(\.reference.path)
      #expect(!names.isEmpty)
      seen += names
    }
    #expect(seen.count == 10_000)
    #expect(Set(seen).count == 10_000, "no document in two partitions")
    #expect(Set(seen) == Set(paths.prefix(10_000)))
    // Partitions follow each other in document order, so their results concatenate in order.
    let ordered = try await db.collectionGroup(group).order(by: FieldPath.documentID()).selectDocumentIDs().getDocuments()
    #expect(seen == ordered.documents.map(\.reference.path))

    // A partition can be rebuilt elsewhere from the group ID and two paths.
    let middle = partitions[3]
    let rebuilt = QueryPartition(
      collectionGroup: db.collectionGroup(group), startAt: middle.startAt.map { db.document($0.path) },
      endBefore: middle.endBefore.map { db.document($0.path) })
    #expect(
      try await rebuilt.toQuery().getDocuments().documents.map(\.documentID)
        == (try await middle.toQuery().getDocuments().documents.map(\.documentID)))
  }

  @Test("one partition needs no request; a small group gives fewer; a bad count fails before sending", arguments: Backend.all)
  func edges(_ backend: Backend) async throws {
    let db = backend.db
    let group = groupID()
    let one = try await db.collectionGroup(group).getPartitions(1)
    #expect(one.count == 1 && one[0].startAt == nil && one[0].endBefore == nil)
    for count in [0, -3] {
      let error = await #expect(throws: FirestoreError.self) { try await db.collectionGroup(group).getPartitions(count) }
      #expect(error?.code == .invalidArgument && error?.requestPath == nil)
    }
    let bad = await #expect(throws: FirestoreError.self) { try await db.collectionGroup("a/b").getPartitions(2) }
    #expect(bad?.code == .invalidArgument && bad?.requestPath == nil)
    guard backend == .mock else { return }
    try await db.document("\(group)/only").setData([:])
    // "The actual number of partitions returned may be fewer": one document, one partition.
    let few = try await db.collectionGroup(group).getPartitions(5)
    #expect(few.count == 1)
    #expect(try await few[0].toQuery().getDocuments().count == 1)
  }
}
