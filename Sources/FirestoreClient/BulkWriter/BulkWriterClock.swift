import FirestorePlatform
import FirestoreWire

/// The time source of a ``BulkWriter``: when it is, and how to wait.
///
/// The writer reads the time to pace its requests (the ramp-up of
/// ``BulkWriterOptions/initialOperationsPerSecond``) and waits through the clock for both
/// the rate limit and retry backoff. Replace it in tests to check the pacing without
/// waiting:
///
/// ```swift
/// let now = Locked(Duration.zero)
/// let clock = BulkWriterClock(
///   now: { now.withLock { $0 } },
///   sleep: { d in now.withLock { $0 += d } })   // "waits" by moving time forward
/// ```
public struct BulkWriterClock: Sendable {
  /// The time elapsed since some fixed starting point; must never go backwards.
  public var now: @Sendable () -> Duration
  /// Waits for (at least) the given duration; throws when the waiting task is cancelled.
  public var sleep: @Sendable (Duration) async throws -> Void

  /// Creates a clock from its two operations.
  public init(now: @escaping @Sendable () -> Duration, sleep: @escaping @Sendable (Duration) async throws -> Void) {
    self.now = now
    self.sleep = sleep
  }

  /// Real, monotonic time (`ContinuousClock`) and `Task.sleep`.
  public static var continuous: BulkWriterClock {
    let clock = ContinuousClock()
    let start = clock.now
    return BulkWriterClock(now: { clock.now - start }, sleep: { try await Task.sleep(for: $0) })
  }
}
