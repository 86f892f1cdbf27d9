#if canImport(CCurl)
  import BenchmarkSupport
  import FirestoreClient
  import Foundation

  /// curl's way with the two hand-overs that any client whose callers `await` must make:
  /// the request goes to a thread of its own, which sends it with ``CurlEasyBaseline`` and
  /// resumes the waiting task. Nothing else is done: no chain, no event loop beyond one
  /// blocking transfer at a time, and no parsing unless the caller parses what it keeps
  /// (`keepsBody`, the paired floor side).
  ///
  /// It is what an async client that never blocks a thread of the cooperative pool (which
  /// the app and an embedded server share) cannot do without: curl's time plus the two
  /// wake-ups.
  ///
  /// Unchecked: `job` is read and written under `condition`, and only the thread uses the
  /// easy handle.
  final class CurlHandOffBaseline: @unchecked Sendable {
    private let curl: CurlEasyBaseline
    private let condition = NSCondition()
    /// The one job waiting, guarded by `condition`.
    private var job: (() -> Void)?

    /// Starts the thread, which keeps the baseline for the life of the process; with
    /// `keepsBody` each reply's body comes back with its status.
    init(keepsBody: Bool = false) throws {
      curl = try CurlEasyBaseline(keepsBody: keepsBody)
      let thread = Thread {
        // Set from inside: a name given before `start()` does not reach the system's thread.
        Thread.current.name = "bench-handoff"
        self.serve()
      }
      thread.start()
    }

    private func serve() {
      while true {
        condition.lock()
        while job == nil { condition.wait() }
        let next = job
        job = nil
        condition.unlock()
        next?()
      }
    }

    /// Sends `request` on the thread, awaiting its status and (when kept) its body.
    func send(_ request: HTTPRequest) async throws -> (status: Int, body: Data) {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<(status: Int, body: Data), any Error>) in
        condition.lock()
        precondition(job == nil, "one request at a time")
        job = { [curl] in continuation.resume(with: Result { (try curl.send(request), curl.body) }) }
        condition.unlock()
        condition.signal()
      }
    }
  }
#endif
