import FirestorePlatform
import FirestoreTestSupport
import Foundation
import Synchronization
import Testing

@testable import FirestoreClient

@Suite("Conformance: transactions")
struct TransactionConformanceTests {
  /// Checks that no transaction holds a lock on `ref`: a plain write with no retries sets
  /// `v` to 2 (a leaked read lock would make it fail with ABORTED after ~2 s).
  private func expectLockReleased(
    _ ref: DocumentReference, _ backend: Backend, sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let noRetry = backend.firestore { $0.retryPolicy = .none }
    try await noRetry.document(ref.path).setData(["v": 2])
    #expect(try await ref.getDocument().get("v") as? Int == 2, sourceLocation: sourceLocation)
  }

  @Test("reads then writes commit atomically and return the body's value", arguments: Backend.all)
  func readThenWrite(_ backend: Backend) async throws {
    let c = backend.collection()
    let counter = c.document("counter")
    try await counter.setData(["n": 1])
    try await c.document("q1").setData(["tag": "x"])
    let result = try await backend.db.runTransaction { tx in
      let snapshot = try await tx.getDocument(counter)
      let matching = try await tx.getDocuments(c.whereField("tag", isEqualTo: "x"))
      let n = (snapshot.get("n") as? Int ?? 0) + matching.count
      tx.updateData(["n": n], forDocument: counter)
      tx.setData(["copy": n], forDocument: c.document("copy"))
      return n
    }
    #expect(result == 2)
    #expect(try await counter.getDocument().get("n") as? Int == 2)
    #expect(try await c.document("copy").getDocument().get("copy") as? Int == 2)
  }

  @Test("concurrent transactions on one document retry on contention and both apply", arguments: Backend.all)
  func contention(_ backend: Backend) async throws {
    let counter = backend.collection().document("counter")
    try await counter.setData(["n": 0])
    let attempts = Counter()
    // Both first attempts read before either writes, so both read 0 and one must retry.
    let firstReads = Counter()
    try await withThrowingTaskGroup(of: Void.self) { group in
      for _ in 0..<2 {
        group.addTask {
          let first = Locked(true)
          try await backend.db.runTransaction { tx in
            attempts.increment()
            let n = try await tx.getDocument(counter).get("n") as? Int ?? 0
            if first.withLock({ $0 }) {
              first.withLock { $0 = false }
              firstReads.increment()
              try await eventually("both transactions to have read") { firstReads.value >= 2 }
            }
            tx.updateData(["n": n + 1], forDocument: counter)
            return ()
          }
        }
      }
      try await group.waitForAll()
    }
    #expect(try await counter.getDocument().get("n") as? Int == 2)
    #expect(attempts.value >= 3, "one of the two transactions ran again")
  }

  @Test("the body's own error rolls back, is rethrown unchanged, and releases the lock", arguments: Backend.all)
  func bodyErrorRollsBack(_ backend: Backend) async throws {
    struct AppError: Error, Equatable { let code: Int }
    let ref = backend.collection().document("locked")
    try await ref.setData(["v": 1])
    await #expect(throws: AppError(code: 7)) {
      try await backend.db.runTransaction { tx in
        _ = try await tx.getDocument(ref)
        tx.setData(["v": 99], forDocument: ref)
        throw AppError(code: 7)
      }
    }
    #expect(try await ref.getDocument().get("v") as? Int == 1)
    try await expectLockReleased(ref, backend)
  }

  @Test("a cancelled transaction still releases its lock", arguments: Backend.all)
  func cancellationReleasesLock(_ backend: Backend) async throws {
    let ref = backend.collection().document("cancelled")
    try await ref.setData(["v": 1])
    let locked = Counter()
    let task = Task {
      try await backend.db.runTransaction { tx in
        _ = try await tx.getDocument(ref)
        locked.increment()
        try await Task.sleep(for: .seconds(30))
        return ()
      }
    }
    try await eventually("the transaction to hold its lock") { locked.value > 0 }
    task.cancel()
    _ = await task.result
    try await expectLockReleased(ref, backend)
  }

  @Test("read-only transactions read, at a past time if asked, and refuse writes", arguments: Backend.all)
  func readOnly(_ backend: Backend) async throws {
    let ref = backend.collection().document("ro")
    let firstVersion = try await ref.writeTwoVersions()
    let old = try await backend.db.runTransaction(options: TransactionOptions(readOnly: true, readTime: firstVersion)) { tx in
      try await tx.getDocument(ref).get("v") as? Int
    }
    #expect(old == 1)
    let error = try await #require(throws: FirestoreError.self) {
      try await backend.db.runTransaction(options: TransactionOptions(readOnly: true)) { tx in
        tx.setData(["v": 3], forDocument: ref)
      }
    }
    #expect(error.code == .invalidArgument)
    #expect(try await ref.getDocument().get("v") as? Int == 2)
  }

  @Test("a read after a write is rejected", arguments: Backend.all)
  func readAfterWrite(_ backend: Backend) async throws {
    let ref = backend.collection().document("rw")
    let error = try await #require(throws: FirestoreError.self) {
      try await backend.db.runTransaction { tx in
        tx.setData(["v": 1], forDocument: ref)
        _ = try await tx.getDocument(ref)
      }
    }
    #expect(error.code == .invalidArgument && error.message.contains("reads before its writes"))
    #expect(try await ref.getDocument().exists == false)
  }

  /// As the server SDKs' `transaction.get(aggregateQuery)`.
  @Test("a transaction computes aggregations over what it reads, then writes from them", arguments: Backend.all)
  func aggregationInTransaction(_ backend: Backend) async throws {
    let items = backend.collection()
    for (id, n) in [("a", 2), ("b", 4), ("c", 6)] { try await items.document(id).setData(["n": n]) }
    let stats = backend.collection().document("stats")
    try await backend.db.runTransaction { tx in
      let snapshot = try await tx.getAggregation(items.aggregate([.count(), .sum("n"), .average("n")]))
      let totals: [String: Any] = [
        "count": snapshot.count, "sum": snapshot.get(.sum("n")) ?? 0, "average": snapshot.get(.average("n")) ?? 0,
      ]
      tx.setData(totals, forDocument: stats)
    }
    let written = try await stats.getDocument()
    #expect(written.get("count") as? Int == 3 && written.get("sum") as? Int == 12 && written.get("average") as? Double == 4)
    let error = try await #require(throws: FirestoreError.self) {
      try await backend.db.runTransaction { tx in
        tx.setData(["v": 1], forDocument: stats)
        _ = try await tx.getAggregation(items.count)
      }
    }
    #expect(error.code == .invalidArgument && error.message.contains("reads before its writes"))
  }

  /// As the server SDKs' `transaction.getAll(..., {fieldMask})`.
  @Test("a transaction's getAll returns the fields its mask names", arguments: Backend.all)
  func getAllWithFieldMask(_ backend: Backend) async throws {
    let items = backend.collection()
    try await items.document("a").setData(["keep": 1, "drop": 2, "nested": ["in": 3, "out": 4]])
    let fields = try await backend.db.runTransaction { tx in
      try await tx.getAll([items.document("a"), items.document("missing")], fieldMask: ["keep", "nested.in"]).map { $0.data() }
    }
    #expect(fields.count == 2)
    #expect((fields[0]?["keep"] as? Int) == 1 && fields[0]?["drop"] == nil)
    #expect((fields[0]?["nested"] as? [String: Any])?.keys.sorted() == ["in"])
    #expect(fields[1] == nil)
  }

  /// As the Apple SDK's: a transaction neither reads into the cache nor writes into it, so
  /// the cache never keeps a version the transaction's own commit replaced.
  @Test("a transaction's reads stay out of the cache, as its writes do", arguments: Backend.all)
  func readsStayOutOfTheCache(_ backend: Backend) async throws {
    let db = backend.firestore()
    let ref = db.collection(backend.collection().path).document("t")
    try await db.runTransaction { tx in
      #expect(try await tx.getDocument(ref).exists == false)
      _ = try await tx.getDocuments(ref.parent)
      tx.setData(["v": 1], forDocument: ref)
    }
    await #expect(throws: FirestoreError.self, "the cache knows nothing of the document") {
      try await ref.getDocument(source: .cache)
    }
    #expect(try await ref.getDocument().get("v") as? Int == 1)
  }

  @Test("a read after a write fails the transaction even when the body catches its error", arguments: Backend.all)
  func readAfterWriteCaught(_ backend: Backend) async throws {
    let ref = backend.collection().document("rw")
    try await ref.setData(["v": "before"])
    let caught = Locked(false)
    let error = try await #require(throws: FirestoreError.self) {
      try await backend.db.runTransaction { tx in
        tx.setData(["v": "after"], forDocument: ref)
        do {
          _ = try await tx.getDocument(ref)
        } catch {
          caught.withLock { $0 = true }
        }
      }
    }
    #expect(caught.withLock { $0 })
    #expect(error.code == .invalidArgument && error.message.contains("reads before its writes"))
    #expect(try await ref.getDocument().get("v") as? String == "before")
  }
}
