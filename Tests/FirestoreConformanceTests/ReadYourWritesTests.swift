import FirestoreTestSupport
import FirestoreWire
import Foundation
import Testing

@testable import FirestoreClient

/// Reads from the server show this client's writes the server has not applied yet, merged
/// into its answer, as every read of the Apple SDK does (latency compensation): code that
/// writes without waiting and then reads finds what it wrote.
///
/// The write is held pending by the server itself: another client's transaction has read
/// (and so locked) the documents, and the commit waits for the lock until the transaction
/// ends, on the emulator and on the mock alike.
@Suite("Conformance: server reads show pending writes")
struct ReadYourWritesTests {
  /// Writes without waiting for the server, as synchronous code does.
  static func writeWithoutWaiting(_ batch: WriteBatch) {
    batch.commit()
  }

  @Test("a query and a document read from the server include the writes still waiting for the server", arguments: Backend.all)
  func serverReadsIncludePendingWrites(_ backend: Backend) async throws {
    let items = backend.collection()
    let (a, b, c) = (items.document("a"), items.document("b"), items.document("c"))
    try await a.setData(["n": 1])
    try await b.setData(["n": 2])
    // The writer is a client of its own: its cache knows nothing before the reads.
    let writer = backend.firestore { $0.cache = .memory() }
    let writerItems = writer.collection(items.path)

    // Another client's transaction reads a and b, then waits: the server locks them.
    let (locked, lockedSignal) = AsyncStream<Void>.makeStream()
    let (release, releaseSignal) = AsyncStream<Void>.makeStream()
    let holder = backend.firestore()
    let transaction = Task {
      try await holder.runTransaction { tx in
        _ = try await tx.getDocument(holder.document(a.path))
        _ = try await tx.getDocument(holder.document(b.path))
        lockedSignal.yield()
        for await _ in release { break }
      }
    }
    for await _ in locked { break }

    let batch = writer.batch()
    batch.updateData(["n": 10], forDocument: writer.document(a.path))
    batch.deleteDocument(writer.document(b.path))
    batch.setData(["n": 3], forDocument: writer.document(c.path))
    Self.writeWithoutWaiting(batch)

    for source in [FirestoreSource.default, .server] {
      let query = try await writerItems.getDocuments(source: source)
      #expect(query.documents.map(\.documentID) == ["a", "c"], "\(source)")
      #expect(query.documents.map { $0.get("n") as? Int } == [10, 3], "\(source)")
      #expect(query.metadata == SnapshotMetadata(isFromCache: false, hasPendingWrites: true), "\(source)")
      #expect(query.documents.allSatisfy { $0.metadata.hasPendingWrites }, "\(source)")
      let counted = try await writerItems.whereField("n", isGreaterThan: 5).getDocuments(source: source)
      #expect(counted.documents.map(\.documentID) == ["a"], "the write's new value decides the match (\(source))")

      let document = try await writer.document(a.path).getDocument(source: source)
      #expect(document.get("n") as? Int == 10, "\(source)")
      #expect(document.metadata == SnapshotMetadata(isFromCache: false, hasPendingWrites: true), "\(source)")
      let deleted = try await writer.document(b.path).getDocument(source: source)
      #expect(!deleted.exists, "a pending delete reads as missing (\(source))")
    }
    // The server itself has applied nothing yet.
    let outside = try await items.getDocuments(source: .server)
    #expect(outside.documents.map { $0.get("n") as? Int } == [1, 2])

    releaseSignal.yield()
    _ = try await transaction.value
    try await writer.waitForPendingWrites()
    let settled = try await writerItems.getDocuments(source: .server)
    #expect(settled.documents.map(\.documentID) == ["a", "c"])
    #expect(settled.metadata == SnapshotMetadata(isFromCache: false, hasPendingWrites: false))
    try await writer.terminate()
    try await holder.terminate()
  }
}
