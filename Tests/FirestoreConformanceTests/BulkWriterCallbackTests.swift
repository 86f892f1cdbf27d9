import FirestorePlatform
import FirestoreTestSupport
import FirestoreWire
import Foundation
import Testing

@testable import FirestoreClient

/// The bulk writer's `onWriteResult` and `onWriteError`, on the mock and the emulator
/// alike: the failures are real ones the server reports (an update of a missing document).
@Suite("Conformance: bulk writer callbacks")
struct BulkWriterCallbackTests {
  private func makeWriter(_ db: Firestore) -> BulkWriter {
    var options = BulkWriterOptions.unlimited
    options.initialBackoff = .milliseconds(1)
    options.maximumBackoff = .milliseconds(5)
    return db.bulkWriter(options: options)
  }

  @Test("onWriteResult hears of each success, with its document and result, before the write's result returns", arguments: Backend.all)
  func results(_ backend: Backend) async throws {
    let c = backend.collection()
    let writer = makeWriter(backend.db)
    let heard = Locked<[String: WriteResult]>([:])
    writer.onWriteResult { document, result in heard.withLock { $0[document.path] = result } }
    var operations: [BulkWriteOperation] = []
    for i in 0..<25 { operations.append(try writer.setData(["i": i], forDocument: c.document("d\(i)"))) }
    operations.append(try writer.updateData(["i": 1], forDocument: c.document("missing")))
    for operation in operations.prefix(25) {
      let result = try await operation.result()
      #expect(heard.withLock { $0[operation.document.path] }?.updateTime == result.updateTime)
    }
    await writer.close()
    #expect(heard.withLock { $0.count } == 25, "the failed update is not a result")
    #expect(heard.withLock { $0[c.document("missing").path] } == nil)
  }

  @Test("onWriteError decides each retry: it sees the document, the kind of write and the attempts so far", arguments: Backend.all)
  func errors(_ backend: Backend) async throws {
    let c = backend.collection()
    let writer = makeWriter(backend.db)
    let seen = Locked<[BulkWriterError]>([])
    writer.onWriteError { error in
      seen.withLock { $0.append(error) }
      return error.failedAttempts < 3
    }
    let update = try writer.updateData(["x": 1], forDocument: c.document("missing"))
    try await c.document("exists").setData(["x": 0])
    let create = try writer.create(["x": 1], forDocument: c.document("exists"))
    let error = await #expect(throws: FirestoreError.self) { try await update.result() }
    #expect(error?.code == .notFound)
    #expect(update.attempts == 3, "retried while the callback said so")
    let createError = await #expect(throws: FirestoreError.self) { try await create.result() }
    #expect(createError?.code == .alreadyExists)
    await writer.close()
    let errors = seen.withLock { $0 }
    let updates = errors.filter { $0.document.documentID == "missing" }
    #expect(updates.map(\.failedAttempts) == [1, 2, 3])
    #expect(updates.allSatisfy { $0.operationType == .update && $0.code == .notFound })
    #expect(errors.filter { $0.document.documentID == "exists" }.map(\.operationType) == [.create, .create, .create])
    // Without a callback, a not-found update is not retried at all.
    let plain = makeWriter(backend.db)
    let once = try plain.updateData(["x": 1], forDocument: c.document("missing2"))
    _ = await #expect(throws: FirestoreError.self) { try await once.result() }
    #expect(once.attempts == 1)
    await plain.close()
  }

  @Test("a callback that gives up at once turns a retryable failure into the write's error", arguments: Backend.all)
  func giveUp(_ backend: Backend) async throws {
    let c = backend.collection()
    let writer = makeWriter(backend.db)
    let calls = Counter()
    writer.onWriteError { _ in
      calls.increment()
      return false
    }
    let delete = try writer.deleteDocument(c.document("absent"), precondition: .exists(true))
    let error = await #expect(throws: FirestoreError.self) { try await delete.result() }
    #expect(error?.code == .notFound)
    #expect(calls.value == 1 && delete.attempts == 1)
    await writer.close()
  }
}
