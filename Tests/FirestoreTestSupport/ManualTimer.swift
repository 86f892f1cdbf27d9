import FirestorePlatform

/// Waits that end when the test says so, for code that takes its sleep as a function (a
/// request timeout, a backoff): a deadline the test needs to pass passes at
/// ``expireAll()``, never by real time, so a busy machine cannot make it pass early or late.
///
/// A cancelled wait ends at once with `CancellationError`, as `Task.sleep` does, and is no
/// longer ``pending``.
///
/// ```swift
/// let timer = ManualTimer()
/// await db.listenManager.setRequestTimer { try await timer.wait($0) }
/// … // the request is held
/// try await eventually("the request's timer") { timer.pending.count == 1 }
/// timer.expireAll()
/// ```
public final class ManualTimer: Sendable {
  private struct State {
    var nextID = 0
    var waiting: [Int: (duration: Duration, continuation: CheckedContinuation<Void, any Error>)] = [:]
    /// Waits cancelled before they were registered.
    var cancelledEarly: Set<Int> = []
  }

  private let state = Locked(State())

  /// Creates a timer with no waits.
  public init() {}

  /// Waits until ``expireAll()`` (returning) or cancellation (throwing `CancellationError`);
  /// `duration` is only recorded.
  public func wait(_ duration: Duration) async throws {
    let id = state.withLock { state -> Int in
      state.nextID += 1
      return state.nextID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        let cancelled = state.withLock { state -> Bool in
          if state.cancelledEarly.remove(id) != nil { return true }
          state.waiting[id] = (duration, continuation)
          return false
        }
        if cancelled { continuation.resume(throwing: CancellationError()) }
      }
    } onCancel: {
      let continuation = state.withLock { state -> CheckedContinuation<Void, any Error>? in
        if let entry = state.waiting.removeValue(forKey: id) { return entry.continuation }
        state.cancelledEarly.insert(id)
        return nil
      }
      continuation?.resume(throwing: CancellationError())
    }
  }

  /// The durations of the waits now pending, oldest first.
  public var pending: [Duration] {
    state.withLock { state in state.waiting.sorted { $0.key < $1.key }.map(\.value.duration) }
  }

  /// Ends every pending wait as if its time had come, and returns how many there were.
  @discardableResult
  public func expireAll() -> Int {
    let ended = state.withLock { state in
      defer { state.waiting = [:] }
      return Array(state.waiting.values)
    }
    for entry in ended { entry.continuation.resume() }
    return ended.count
  }
}
