import FirestorePlatform
import FirestoreWire

/// Runs work with a hang guard: its outcome, or `nil` when it has none within the limit
/// (the work is then cancelled and left behind, so a hung call cannot hold the test).
enum HangGuard {
  static func outcome<T: Sendable>(within limit: Duration, _ work: @escaping @Sendable () async throws -> T) async -> Result<T, any Error>?
  {
    let once = Locked<CheckedContinuation<Result<T, any Error>?, Never>?>(nil)
    let resume: @Sendable (Result<T, any Error>?) -> Void = { outcome in
      once.withLock { continuation in
        continuation?.resume(returning: outcome)
        continuation = nil
      }
    }
    return await withCheckedContinuation { continuation in
      once.withLock { $0 = continuation }
      let task = Task {
        do {
          resume(.success(try await work()))
        } catch {
          resume(.failure(error))
        }
      }
      let timer = Task {
        guard (try? await Task.sleep(for: limit)) != nil else { return }
        task.cancel()
        resume(nil)
      }
      // The timer goes as soon as the work is done.
      Task {
        _ = await task.value
        timer.cancel()
      }
    }
  }
}
