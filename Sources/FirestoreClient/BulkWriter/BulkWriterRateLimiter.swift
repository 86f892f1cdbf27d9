import Foundation

/// The token bucket behind a ``BulkWriter``'s pacing, with the 500/50/5 ramp-up.
///
/// The allowed rate is `initial × factor^k` writes per second during the k-th
/// ``BulkWriterOptions/rampUpInterval`` since the first write, capped at the maximum. The
/// bucket holds at most one second of the current rate and starts full. A batch may go
/// when the bucket holds its size (or, for a rate below the batch size, a full bucket);
/// it may then leave the bucket in debt, which later batches wait off, so the long-run
/// rate is kept exactly.
struct BulkWriterRateLimiter: Sendable {
  let initial: Double?
  let maximum: Double?
  let interval: Duration
  let factor: Double
  private var start: Duration?
  private var tokens = 0.0
  private var refilledAt = Duration.zero

  init(options: BulkWriterOptions) {
    initial = options.initialOperationsPerSecond.map { min($0, options.maximumOperationsPerSecond ?? $0) }
    maximum = options.maximumOperationsPerSecond
    interval = options.rampUpInterval
    factor = options.rampUpFactor
  }

  /// The allowed writes per second at `now`, or `nil` when unlimited.
  func rate(at now: Duration) -> Double? {
    guard let initial else { return nil }
    let elapsed = max(.zero, now - (start ?? now))
    let phases = (elapsed / interval).rounded(.down)
    var rate = initial
    if phases > 0 { rate *= pow(factor, phases) }
    return min(rate, maximum ?? .infinity)
  }

  /// Takes `count` tokens at `now` and returns `nil`, or takes nothing and returns how long
  /// to wait before asking again.
  mutating func take(_ count: Int, at now: Duration) -> Duration? {
    if start == nil {
      start = now
      refilledAt = now
      tokens = rate(at: now) ?? 0
    }
    guard let rate = rate(at: now) else { return nil }
    let elapsed = max(0, (now - refilledAt).seconds)
    tokens = min(rate, tokens + elapsed * rate)
    refilledAt = max(refilledAt, now)
    let needed = min(Double(count), rate)
    if tokens >= needed {
      tokens -= Double(count)
      return nil
    }
    return .seconds((needed - tokens) / rate)
  }
}
