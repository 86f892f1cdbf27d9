import FirestoreClient
import FirestoreDemo
import FirestorePlatform
import FirestoreRepositories
import FirestoreTestSupport
import FirestoreWire
import Foundation
import Testing

/// Helpers shared by the repository tests (mock and emulator alike).
enum RepositoryTestSupport {
  /// A client of `backend` whose requests go through a fresh ``CountingTransport``.
  static func counted(_ backend: Backend) -> (Firestore, CountingTransport) {
    Ledger.record(backend)
    let counter = CountingTransport(wrapping: backend.transport)
    let db = backend.firestore { $0.transport = counter }
    return (db, counter)
  }

  /// Writes `count` articles `a01`, `a02`... into `collection` with one batch: article n
  /// published n hours after a fixed time, in `category(n)`.
  static func seedArticles(
    _ db: Firestore, _ collection: String, count: Int, category: (Int) -> String = { _ in "swift" }
  ) async throws {
    let batch = db.batch()
    for n in 1...count {
      batch.setData(
        [
          "title": "Article \(n)", "category": category(n),
          "publishedAt": Date(timeIntervalSince1970: 1_700_000_000 + Double(n) * 3600),
          "content": String(repeating: "x", count: 200),
        ], forDocument: db.collection(collection).document(articleID(n)))
    }
    _ = try await batch.commit()
  }

  static func articleID(_ n: Int) -> String { n < 10 ? "a0\(n)" : "a\(n)" }

  /// Waits until `condition` holds, polling; fails the test after `seconds`.
  static func eventually(
    _ what: String, seconds: Double = 20, sourceLocation: SourceLocation = #_sourceLocation, _ condition: () async throws -> Bool
  ) async throws {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while ContinuousClock.now < deadline {
      if try await condition() { return }
      try await Task.sleep(for: .milliseconds(20))
    }
    Issue.record("timed out waiting for \(what)", sourceLocation: sourceLocation)
    throw FirestoreError(.deadlineExceeded, "timed out waiting for \(what)")
  }
}

/// Collects the values of an `AsyncSequence` in the background, for tests that act and
/// then look at what arrived.
final class Collected<Element: Sendable>: Sendable {
  private let state = Locked((values: [Element](), error: (any Error)?.none, finished: false))
  private let task = Locked(Task<Void, Never>?.none)

  init<S: AsyncSequence & Sendable>(_ sequence: S) where S.Element == Element {
    let t = Task {
      do {
        for try await value in sequence { self.state.withLock { $0.values.append(value) } }
      } catch {
        self.state.withLock { $0.error = error }
      }
      self.state.withLock { $0.finished = true }
    }
    task.withLock { $0 = t }
  }

  var values: [Element] { state.withLock { $0.values } }
  var error: (any Error)? { state.withLock { $0.error } }
  var finished: Bool { state.withLock { $0.finished } }
  var last: Element? { values.last }

  func cancel() { task.withLock { $0?.cancel() } }

  /// Waits until the latest value satisfies `condition` and returns it.
  func wait(
    _ what: String, seconds: Double = 20, sourceLocation: SourceLocation = #_sourceLocation, _ condition: (Element) -> Bool
  ) async throws -> Element {
    var found: Element?
    try await RepositoryTestSupport.eventually(what, seconds: seconds, sourceLocation: sourceLocation) {
      if let error = self.error { throw error }
      if let last = self.last, condition(last) { found = last }
      return found != nil
    }
    return found!
  }

  /// Waits for the sequence to end.
  func waitForEnd(seconds: Double = 20, sourceLocation: SourceLocation = #_sourceLocation) async throws {
    try await RepositoryTestSupport.eventually("the end of the sequence", seconds: seconds, sourceLocation: sourceLocation) {
      self.finished
    }
  }
}
