import Dispatch
import FirestorePlatform

/// Waits on the calling thread for async work: the synchronous reads of a transaction block
/// of the Apple SDK's shape, which runs on a dispatch queue of its own (never on a thread of
/// the Swift concurrency pool, which blocking could starve).
enum BlockingWait {
  /// Runs `work` in a task and blocks until it has finished, returning its value or
  /// throwing its error.
  static func run<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
    let outcome = Locked<Result<T, any Error>?>(nil)
    let finished = DispatchSemaphore(value: 0)
    Task {
      let result: Result<T, any Error>
      do { result = .success(try await work()) } catch { result = .failure(error) }
      outcome.withLock { $0 = result }
      finished.signal()
    }
    finished.wait()
    // The task stored its result before signalling.
    return try outcome.value!.get()
  }
}
