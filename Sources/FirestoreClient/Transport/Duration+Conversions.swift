extension Duration {
  /// The duration in seconds, as a floating-point number.
  var seconds: Double {
    Double(components.seconds) + Double(components.attoseconds) / 1e18
  }

  /// `seconds` as a duration, for a number that may be anything (a setting, a server's
  /// reply, a product of backoff factors): NaN is zero, and past what `Int64` nanoseconds
  /// hold (about 292 years either way) it stops at that bound, where a plain conversion
  /// would trap.
  static func saturating(seconds: Double) -> Duration {
    guard !seconds.isNaN else { return .zero }
    let nanoseconds = seconds * 1e9
    if nanoseconds >= Double(Int64.max) { return .nanoseconds(Int64.max) }
    if nanoseconds <= Double(Int64.min) { return .nanoseconds(Int64.min) }
    return .nanoseconds(Int64(nanoseconds.rounded()))
  }

  /// The whole nanoseconds of the duration, stopping at `Int64`'s bounds.
  var saturatingNanoseconds: Int64 { Self.whole(components, perSecond: 1_000_000_000) }

  /// The whole milliseconds of the duration, stopping at `Int64`'s bounds (libcurl and
  /// `poll` take milliseconds; a duration of centuries must not trap on the way).
  var saturatingMilliseconds: Int64 { Self.whole(components, perSecond: 1000) }

  private static func whole(_ parts: (seconds: Int64, attoseconds: Int64), perSecond units: Int64) -> Int64 {
    let bound: Int64 = parts.seconds < 0 ? .min : .max
    let (scaled, overflow) = parts.seconds.multipliedReportingOverflow(by: units)
    if overflow { return bound }
    let (sum, carried) = scaled.addingReportingOverflow(parts.attoseconds / (1_000_000_000_000_000_000 / units))
    return carried ? bound : sum
  }
}
