import FirestorePlatform

/// How one awaited write batch was settled, for its caller.
///
/// The settlement may come before the caller waits (an attempt made in the caller's own
/// task ends before it asks), and is then kept; or after, and is then handed to the
/// waiting caller. Only the first settlement counts.
final class BatchOutcome: Sendable {
  private struct State {
    var result: Result<[WriteResult], FirestoreError>?
    var waiting: CheckedContinuation<[WriteResult], any Error>?
  }

  private let state = Locked(State())

  /// Settles the batch with `result`, unless it is settled already.
  func settle(_ result: Result<[WriteResult], FirestoreError>) {
    let waiting = state.withLock { s -> CheckedContinuation<[WriteResult], any Error>? in
      guard s.result == nil else { return nil }
      s.result = result
      defer { s.waiting = nil }
      return s.waiting
    }
    waiting?.resume(with: result)
  }

  /// The batch's results, once it is settled; at once when it is already.
  func value() async throws -> [WriteResult] {
    if let result = state.withLock({ $0.result }) { return try result.get() }
    return try await withCheckedThrowingContinuation { continuation in
      let result = state.withLock { s -> Result<[WriteResult], FirestoreError>? in
        if s.result == nil { s.waiting = continuation }
        return s.result
      }
      if let result { continuation.resume(with: result) }
    }
  }
}
