/// A unit of time for `timestampAdd`, `timestampSubtract` and `timestampDiff`.
public struct TimeUnit: Sendable, Equatable, Hashable, PipelineOptionName {
  /// The name the backend reads.
  public let rawValue: String

  init(_ rawValue: String) { self.rawValue = rawValue }

  /// A microsecond.
  public static let microsecond = Self("microsecond")
  /// A millisecond.
  public static let millisecond = Self("millisecond")
  /// A second.
  public static let second = Self("second")
  /// A minute.
  public static let minute = Self("minute")
  /// An hour.
  public static let hour = Self("hour")
  /// A day.
  public static let day = Self("day")
}
