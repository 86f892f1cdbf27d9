extension Expression {
  /// `unix_micros_to_timestamp`: the time this many microseconds after the epoch.
  public func unixMicrosToTimestamp() -> FunctionExpression { call("unix_micros_to_timestamp") }
  /// `timestamp_to_unix_micros`: microseconds since the epoch.
  public func timestampToUnixMicros() -> FunctionExpression { call("timestamp_to_unix_micros") }
  /// `unix_millis_to_timestamp`: the time this many milliseconds after the epoch.
  public func unixMillisToTimestamp() -> FunctionExpression { call("unix_millis_to_timestamp") }
  /// `timestamp_to_unix_millis`: milliseconds since the epoch.
  public func timestampToUnixMillis() -> FunctionExpression { call("timestamp_to_unix_millis") }
  /// `unix_seconds_to_timestamp`: the time this many seconds after the epoch.
  public func unixSecondsToTimestamp() -> FunctionExpression { call("unix_seconds_to_timestamp") }
  /// `timestamp_to_unix_seconds`: seconds since the epoch.
  public func timestampToUnixSeconds() -> FunctionExpression { call("timestamp_to_unix_seconds") }
  /// `timestamp_trunc`: this time truncated to `granularity`, in UTC.
  public func timestampTruncate(granularity: TimeGranularity) -> FunctionExpression {
    call("timestamp_trunc", Constant(granularity.rawValue))
  }
  /// `timestamp_trunc`: this time truncated to `granularity` (a ``TimeGranularity`` or its name).
  public func timestampTruncate(granularity: Sendable) -> FunctionExpression {
    call("timestamp_trunc", PipelineArgument(granularity))
  }
  /// `timestamp_trunc`: this time truncated to `granularity` in `timezone` (such as `"America/New_York"`).
  public func timestampTruncate(granularity: TimeGranularity, timezone: Sendable) -> FunctionExpression {
    call("timestamp_trunc", Constant(granularity.rawValue), PipelineArgument(timezone))
  }
  /// `timestamp_trunc`: this time truncated to `granularity` in `timezone`.
  public func timestampTruncate(granularity: Sendable, timezone: Sendable) -> FunctionExpression {
    call("timestamp_trunc", PipelineArgument(granularity), PipelineArgument(timezone))
  }
  /// `timestamp_extract`: `part` of this time, in UTC.
  public func timestampExtract(part: TimePart) -> FunctionExpression { call("timestamp_extract", Constant(part.rawValue)) }
  /// `timestamp_extract`: `part` of this time (a ``TimePart`` or its name).
  public func timestampExtract(part: Sendable) -> FunctionExpression { call("timestamp_extract", PipelineArgument(part)) }
  /// `timestamp_extract`: `part` of this time in `timezone`.
  public func timestampExtract(part: TimePart, timezone: Sendable) -> FunctionExpression {
    call("timestamp_extract", Constant(part.rawValue), PipelineArgument(timezone))
  }
  /// `timestamp_extract`: `part` of this time in `timezone`.
  public func timestampExtract(part: Sendable, timezone: Sendable) -> FunctionExpression {
    call("timestamp_extract", PipelineArgument(part), PipelineArgument(timezone))
  }
  /// `timestamp_diff`: whole `unit`s from `start` to this time.
  public func timestampDiff(_ start: Expression, _ unit: TimeUnit) -> FunctionExpression {
    call("timestamp_diff", start, Constant(unit.rawValue))
  }
  /// `timestamp_diff`: whole `unit`s (a ``TimeUnit`` or its name) from `start` to this time.
  public func timestampDiff(_ start: Expression, _ unit: Sendable) -> FunctionExpression {
    call("timestamp_diff", start, PipelineArgument(unit))
  }
  /// `timestamp_add`: this time plus `amount` `unit`s.
  public func timestampAdd(_ amount: Int, _ unit: TimeUnit) -> FunctionExpression {
    call("timestamp_add", Constant(unit.rawValue), Constant(amount))
  }
  /// `timestamp_add`: this time plus `amount` `unit`s (a ``TimeUnit`` or its name).
  public func timestampAdd(amount: Expression, unit: Sendable) -> FunctionExpression {
    call("timestamp_add", PipelineArgument(unit), amount)
  }
  /// `timestamp_subtract`: this time minus `amount` `unit`s.
  public func timestampSubtract(_ amount: Int, _ unit: TimeUnit) -> FunctionExpression {
    call("timestamp_subtract", Constant(unit.rawValue), Constant(amount))
  }
  /// `timestamp_subtract`: this time minus `amount` `unit`s (a ``TimeUnit`` or its name).
  public func timestampSubtract(amount: Expression, unit: Sendable) -> FunctionExpression {
    call("timestamp_subtract", PipelineArgument(unit), amount)
  }
}
