import Foundation
import Synchronization
import Testing

@testable import FirestoreClient

@Suite("Emulator: transactions", .enabled(if: Emulator.isAvailable))
struct TransactionEmulatorTests {
  @Test("reads then writes commit atomically and return the body's value")
  func readThenWrite() async throws {
    let c = Emulator.collection()
    let counter = c.document("counter")
    try await counter.setData(["n": 1])
    try await c.document("q1").setData(["tag": "x"])
    let result = try await Emulator.db.runTransaction { tx in
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

  @Test("concurrent transactions on one document retry on contention and both apply")
  func contention() async throws {
    let counter = Emulator.collection().document("counter")
    try await counter.setData(["n": 0])
    let attempts = Counter()
    try await withThrowingTaskGroup(of: Void.self) { group in
      for _ in 0..<2 {
        group.addTask {
          try await Emulator.db.runTransaction { tx in
            attempts.increment()
            let n = try await tx.getDocument(counter).get("n") as? Int ?? 0
            try await Task.sleep(for: .milliseconds(100))
            tx.updateData(["n": n + 1], forDocument: counter)
            return ()
          }
        }
      }
      try await group.waitForAll()
    }
    #expect(try await counter.getDocument().get("n") as? Int == 2)
    #expect(attempts.value >= 2)
  }

  @Test("the body's own error rolls back, is rethrown unchanged, and releases the lock")
  func bodyErrorRollsBack() async throws {
    struct AppError: Error, Equatable { let code: Int }
    let ref = Emulator.collection().document("locked")
    try await ref.setData(["v": 1])
    await #expect(throws: AppError(code: 7)) {
      try await Emulator.db.runTransaction { tx in
        _ = try await tx.getDocument(ref)
        tx.setData(["v": 99], forDocument: ref)
        throw AppError(code: 7)
      }
    }
    #expect(try await ref.getDocument().get("v") as? Int == 1)
    // A leaked read lock would make this plain write fail with ABORTED after ~2 s.
    let noRetry = Emulator.firestore { $0.retryPolicy = .none }
    try await noRetry.document(ref.path).setData(["v": 2])
    #expect(try await ref.getDocument().get("v") as? Int == 2)
  }

  @Test("a cancelled transaction still releases its lock")
  func cancellationReleasesLock() async throws {
    let ref = Emulator.collection().document("cancelled")
    try await ref.setData(["v": 1])
    let task = Task {
      try await Emulator.db.runTransaction { tx in
        _ = try await tx.getDocument(ref)
        try await Task.sleep(for: .seconds(30))
        return ()
      }
    }
    try await Task.sleep(for: .milliseconds(300))
    task.cancel()
    _ = await task.result
    let noRetry = Emulator.firestore { $0.retryPolicy = .none }
    try await noRetry.document(ref.path).setData(["v": 2])
    #expect(try await ref.getDocument().get("v") as? Int == 2)
  }

  @Test("read-only transactions read, at a past time if asked, and refuse writes")
  func readOnly() async throws {
    let ref = Emulator.collection().document("ro")
    let first = try await ref.setData(["v": 1])
    try await Task.sleep(for: .milliseconds(20))
    try await ref.setData(["v": 2])
    let old = try await Emulator.db.runTransaction(options: TransactionOptions(readOnly: true, readTime: first.updateTime)) { tx in
      try await tx.getDocument(ref).get("v") as? Int
    }
    #expect(old == 1)
    let error = try await #require(throws: FirestoreError.self) {
      try await Emulator.db.runTransaction(options: TransactionOptions(readOnly: true)) { tx in
        tx.setData(["v": 3], forDocument: ref)
      }
    }
    #expect(error.code == .invalidArgument)
    #expect(try await ref.getDocument().get("v") as? Int == 2)
  }

  @Test("a read after a write is rejected")
  func readAfterWrite() async throws {
    let ref = Emulator.collection().document("rw")
    let error = try await #require(throws: FirestoreError.self) {
      try await Emulator.db.runTransaction { tx in
        tx.setData(["v": 1], forDocument: ref)
        _ = try await tx.getDocument(ref)
      }
    }
    #expect(error.code == .invalidArgument && error.message.contains("reads before its writes"))
    #expect(try await ref.getDocument().exists == false)
  }
}
