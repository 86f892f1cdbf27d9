/// An exponential backoff schedule: the wait before the next attempt starts at `initial`,
/// grows by `multiplier` with each failed attempt, and never exceeds `maximum`.
///
/// The one schedule behind request retries (``RetryPolicy``), the bulk writer's write
/// retries, listen reconnects and the queue of writes; each of them only picks its numbers and its jitter.
struct Backoff: Sendable, Equatable {
  /// The cap of the wait after the first failed attempt.
  var initial: Duration
  /// The largest wait.
  var maximum: Duration
  /// How much the cap grows per failed attempt.
  var multiplier: Double

  /// The Firebase SDKs' schedule for their watch and write streams: 1 s, growing × 1.5 per
  /// failed attempt, at most 60 s. Listen reconnects and the queue of writes use it.
  static let stream = Backoff(initial: .seconds(1), maximum: .seconds(60), multiplier: 1.5)

  /// The largest wait after `attempt` failed attempts (counting from 1):
  /// `min(maximum, initial × multiplier^(attempt-1))`.
  func cap(afterAttempt attempt: Int) -> Duration {
    var factor = 1.0
    for _ in 1..<max(1, attempt) { factor *= multiplier }
    return .saturating(seconds: min(maximum.seconds, initial.seconds * factor))
  }

  /// The cap after `attempt` failed attempts: the longest wait at once when the last one
  /// found the server `overloaded` (``RetryClass/isOverload(_:)``), as the Firebase SDKs'
  /// streams and the server SDKs' bulk writers wait then.
  func cap(afterAttempt attempt: Int, overloaded: Bool) -> Duration {
    overloaded ? maximum : cap(afterAttempt: attempt)
  }

  /// Full jitter: a random wait in `0...cap`, so that clients that failed together spread
  /// out over the whole interval.
  static func fullJitter(_ cap: Duration) -> Duration {
    .nanoseconds(Int64.random(in: 0...max(0, cap.saturatingNanoseconds)))
  }

  /// The cap after `attempt` failed attempts (see ``cap(afterAttempt:overloaded:)``), varied by ±25 % (never above ``maximum``): a
  /// wait close to the schedule that still keeps writes failed together from coming back
  /// together.
  func wait(afterAttempt attempt: Int, overloaded: Bool, spread: ClosedRange<Double> = 0.75...1.25) -> Duration {
    let seconds = cap(afterAttempt: attempt, overloaded: overloaded).seconds * Double.random(in: spread)
    return .saturating(seconds: max(0, min(seconds, maximum.seconds)))
  }
}
