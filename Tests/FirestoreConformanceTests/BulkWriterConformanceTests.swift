import FirestoreMock
import FirestorePlatform
import FirestoreTestSupport
import FirestoreWire
import Foundation
import Testing

@testable import FirestoreClient

/// A value of a type Firestore has no mapping for.
private struct Unstorable: Sendable {}

/// A `Codable` document for the bulk writer.
private struct City: Codable, Equatable, Sendable {
  var name: String
  var population: Int
}

/// The bulk writer on the mock and the emulator: per-write results, independent failures,
/// per-document order, flush and close.
@Suite("Conformance: bulk writer")
struct BulkWriterConformanceTests {
  @Test("every write gets its own result and lands; more than one request's worth", arguments: Backend.all)
  func perWriteResults(_ backend: Backend) async throws {
    let collection = backend.collection()
    let writer = backend.db.bulkWriter(options: .unlimited)
    var operations: [BulkWriteOperation] = []
    for i in 0..<65 {
      operations.append(try writer.setData(["i": i, "name": "doc \(i)"], forDocument: collection.document("d\(i)")))
    }
    await writer.close()
    for (i, operation) in operations.enumerated() {
      #expect(operation.isFinished)
      #expect(operation.attempts == 1)
      #expect(operation.document.path == "\(collection.path)/d\(i)")
      let result = try await operation.result()
      #expect(result.updateTime.seconds > 0)
    }
    let snapshot = try await collection.getDocuments()
    #expect(snapshot.count == 65)
    #expect(Set(snapshot.documents.compactMap { $0.get("i") as? Int }) == Set(0..<65))
  }

  @Test("Encodable values are written and read back", arguments: Backend.all)
  func codable(_ backend: Backend) async throws {
    let collection = backend.collection()
    let writer = backend.db.bulkWriter(options: .unlimited)
    let cities = (0..<25).map { City(name: "city \($0)", population: $0 * 1_000) }
    for (i, city) in cities.enumerated() { try writer.setData(from: city, forDocument: collection.document("c\(i)")) }
    await writer.close()
    let read = try await collection.getDocuments().documents.map { try $0.data(as: City.self) }
    #expect(Set(read.map(\.name)) == Set(cities.map(\.name)))
  }

  @Test("one request with failures and successes: each write reports its own outcome", arguments: Backend.all)
  func mixedOutcomes(_ backend: Backend) async throws {
    let collection = backend.collection()
    try await collection.document("taken").setData(["v": 0])
    let writer = backend.db.bulkWriter(options: .unlimited)
    let clash = try writer.create(["v": 1], forDocument: collection.document("taken"))
    let fresh = try writer.create(["v": 2], forDocument: collection.document("fresh"))
    let absent = try writer.updateData(["v": 3], forDocument: collection.document("absent"))
    let merged = try writer.setData(["w": 4], forDocument: collection.document("taken"), merge: true)
    let removed = try writer.deleteDocument(collection.document("never"))
    await writer.flush()
    let clashed = try await #require(throws: FirestoreError.self, "a create of an existing document succeeded") { try await clash.result() }
    #expect(clashed.code == .alreadyExists)
    #expect(clashed.message.contains("taken"))
    let missing = try await #require(throws: FirestoreError.self, "an update of a missing document succeeded") { try await absent.result() }
    #expect(missing.code == .notFound)
    _ = try await fresh.result()
    _ = try await removed.result()
    _ = try await merged.result()
    #expect(clash.attempts == 1 && absent.attempts == 1, "non-retryable failures are not retried")
    #expect(try await collection.document("fresh").getDocument().get("v") as? Int == 2)
    let taken = try await collection.document("taken").getDocument()
    #expect(taken.get("v") as? Int == 0 && taken.get("w") as? Int == 4)
    #expect(!(try await collection.document("absent").getDocument().exists))
  }

  @Test("writes to one document apply in the order they were queued, none lost or doubled", arguments: Backend.all)
  func sameDocumentOrder(_ backend: Backend) async throws {
    let collection = backend.collection()
    let writer = backend.db.bulkWriter(options: .unlimited)
    let counter = collection.document("counter")
    let last = collection.document("last")
    try writer.setData(["n": 0], forDocument: counter)
    for i in 0..<30 {
      try writer.updateData(["n": FieldValue.increment(1)], forDocument: counter)
      try writer.setData(["i": i], forDocument: last)
      try writer.setData(["i": i], forDocument: collection.document("other\(i)"))
    }
    try writer.deleteDocument(collection.document("other0"))
    await writer.close()
    #expect(try await counter.getDocument().get("n") as? Int == 30)
    #expect(try await last.getDocument().get("i") as? Int == 29)
    #expect(!(try await collection.document("other0").getDocument().exists))
    #expect(try await collection.getDocuments().count == 31)
  }

  @Test("a write ABORTED by another transaction's lock is retried alone; its neighbour is not", arguments: Backend.all)
  func retriesPerWriteAborted(_ backend: Backend) async throws {
    // The transaction's read locks the document; the emulator fails a write to it with a
    // per-write ABORTED after a 2 s lock timeout, while the other write succeeds. The mock
    // does the same, on a server of its own whose lock timeout is short: each of the
    // blocked write's attempts waits it out.
    let server = backend == .mock ? try MockFirestoreServer.start(lockTimeout: .milliseconds(50)) : nil
    defer { server?.stop() }
    let db = server.map { Firestore(projectID: backend.project(), settings: .emulator(host: $0.hostAndPort)) } ?? backend.db
    let collection = db.collection(backend.collection().path)
    let locked = collection.document("locked")
    try await locked.setData(["v": 1])
    var options = BulkWriterOptions.unlimited
    options.clock = BulkWriterClock(now: { .zero }, sleep: { _ in })  // retry at once
    let writer = db.bulkWriter(options: options)
    let operations = Locked<(BulkWriteOperation, BulkWriteOperation)?>(nil)
    try await db.runTransaction { tx in
      _ = try await tx.getDocument(locked)
      let (blocked, free) = try operations.withLock { pair in
        if pair == nil {
          pair = (
            try writer.setData(["v": 2], forDocument: locked), try writer.setData(["v": 3], forDocument: collection.document("free"))
          )
        }
        return pair!
      }
      _ = try await free.result()
      try await eventually("the blocked write to be tried again") { blocked.attempts >= 2 }
      return ()
    }
    let (blocked, free) = try #require(operations.withLock { $0 })
    _ = try await blocked.result()  // the retry went through once the transaction ended
    #expect(blocked.attempts >= 2)
    #expect(free.attempts == 1)
    #expect(try await locked.getDocument().get("v") as? Int == 2)
    await writer.close()
  }

  @Test("flush waits for the writes before it; awaiting a result sends its batch; close refuses more", arguments: Backend.all)
  func flushAndClose(_ backend: Backend) async throws {
    let collection = backend.collection()
    var options = BulkWriterOptions.unlimited
    options.partialBatchDelay = .seconds(3_600)  // only flush, close or a waiting caller send a partial batch
    let writer = backend.db.bulkWriter(options: options)
    let first = try writer.setData(["v": 1], forDocument: collection.document("a"))
    _ = try await first.result()  // would hang if waiting did not send the batch
    let second = try writer.setData(["v": 2], forDocument: collection.document("b"))
    #expect(!second.isFinished)
    await writer.flush()
    #expect(second.isFinished)
    await writer.flush()  // nothing queued: returns at once
    let third = try writer.setData(["v": 3], forDocument: collection.document("c"))
    await writer.close()
    #expect(third.isFinished)
    #expect(throws: FirestoreError.self) { try writer.setData(["v": 4], forDocument: collection.document("d")) }
    do {
      try writer.deleteDocument(collection.document("a"))
    } catch {
      #expect(error.code == .failedPrecondition)
      #expect(error.message.contains("closed"))
    }
    await writer.close()  // a second close is harmless
    #expect(try await collection.getDocuments().count == 3)
  }

  @Test("invalid data, a foreign document and bad options throw at once and queue nothing", arguments: Backend.all)
  func invalidInput(_ backend: Backend) async throws {
    let collection = backend.collection()
    let writer = backend.db.bulkWriter(options: .unlimited)
    do {
      try writer.setData(["v": Unstorable()], forDocument: collection.document("x"))
      Issue.record("a value Firestore cannot store was accepted")
    } catch {
      #expect(error.code == .invalidArgument)
    }
    let other = backend.firestore()
    do {
      try writer.setData(["v": 1], forDocument: other.document("\(collection.path)/y"))
      Issue.record("a document of another client was accepted")
    } catch {
      #expect(error.message.contains("another Firestore instance"))
    }
    var options = BulkWriterOptions()
    options.maximumBatchSize = 21
    do {
      try backend.db.bulkWriter(options: options).setData(["v": 1], forDocument: collection.document("z"))
      Issue.record("a batch size over 20 was accepted")
    } catch {
      #expect(error.code == .invalidArgument)
      #expect(error.message.contains("maximumBatchSize"))
    }
    await writer.close()
    #expect(try await collection.getDocuments().isEmpty)
  }
}
