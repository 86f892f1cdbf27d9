import FirestorePlatform
import FirestoreWire

/// When each keyed event first happened, and who waits for it (the `cache` scenario's
/// "pending"/"confirmed" sightings of a write).
final class Arrivals: Sendable {
  private struct State {
    var seen: [String: ContinuousClock.Instant] = [:]
    var waiters: [String: CheckedContinuation<ContinuousClock.Instant, Never>] = [:]
  }

  private let state = Locked(State())

  /// Records the first sighting of `key` and wakes its waiter.
  func record(_ key: String, at time: ContinuousClock.Instant) {
    let waiter = state.withLock { s -> CheckedContinuation<ContinuousClock.Instant, Never>? in
      guard s.seen[key] == nil else { return nil }
      s.seen[key] = time
      return s.waiters.removeValue(forKey: key)
    }
    waiter?.resume(returning: time)
  }

  /// When `key` was first seen, waiting for it if it has not been yet.
  func wait(_ key: String) async -> ContinuousClock.Instant {
    await withCheckedContinuation { continuation in
      let time = state.withLock { s -> ContinuousClock.Instant? in
        if let time = s.seen[key] { return time }
        s.waiters[key] = continuation
        return nil
      }
      if let time { continuation.resume(returning: time) }
    }
  }
}
