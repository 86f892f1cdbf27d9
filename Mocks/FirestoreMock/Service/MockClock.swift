import FirestorePlatform

/// The time a ``MockFirestoreServer`` measures its own deadlines on: transaction expiry,
/// lock timeouts and the Listen back channel's wait.
///
/// Servers run on real time (``continuous``) unless given a ``manual()`` clock, which stands
/// still until ``advance(by:)`` moves it. A test that needs a deadline to pass advances the
/// clock past it instead of waiting, so that a loaded machine can neither expire a
/// transaction too early nor keep a lock wait from timing out:
///
/// ```swift
/// let clock = MockClock.manual()
/// let server = try MockFirestoreServer.start(lockTimeout: .seconds(2), clock: clock)
/// // … a commit now waits for a lock (server.commitsWaitingForLocks == 1) …
/// clock.advance(by: .seconds(2))  // the commit fails with ABORTED
/// ```
///
/// A waiting commit looks at the clock at least every 50 ms of real time, so it sees an
/// advance shortly after it happens.
public final class MockClock: Sendable {
  /// Where real time started for this clock; `nil` for a manual clock.
  private let start: ContinuousClock.Instant?
  /// Time added by ``advance(by:)``.
  private let offset = Locked(Duration.zero)

  private init(start: ContinuousClock.Instant?) {
    self.start = start
  }

  /// A new clock that follows real, monotonic time (`ContinuousClock`).
  public static var continuous: MockClock { MockClock(start: ContinuousClock.now) }

  /// A new clock that starts at zero and moves only with ``advance(by:)``.
  public static func manual() -> MockClock { MockClock(start: nil) }

  /// The time elapsed since the clock was made (plus every advance); never goes backwards.
  public var now: Duration {
    let real = start.map { ContinuousClock.now - $0 } ?? .zero
    return real + offset.withLock { $0 }
  }

  /// Moves the clock forward by `duration` (negative durations are ignored); a continuous
  /// clock keeps running from there.
  public func advance(by duration: Duration) {
    guard duration > .zero else { return }
    offset.withLock { $0 += duration }
  }
}
