/// What `timestampExtract` reads out of a time.
public struct TimePart: Sendable, Equatable, Hashable, PipelineOptionName {
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
  /// A week starting on Sunday.
  public static let week = Self("week")
  /// A week starting on Monday.
  public static let weekMonday = Self("week(monday)")
  /// A week starting on Tuesday.
  public static let weekTuesday = Self("week(tuesday)")
  /// A week starting on Wednesday.
  public static let weekWednesday = Self("week(wednesday)")
  /// A week starting on Thursday.
  public static let weekThursday = Self("week(thursday)")
  /// A week starting on Friday.
  public static let weekFriday = Self("week(friday)")
  /// A week starting on Saturday.
  public static let weekSaturday = Self("week(saturday)")
  /// A week starting on Sunday.
  public static let weekSunday = Self("week(sunday)")
  /// An ISO 8601 week, which starts on Monday.
  public static let isoweek = Self("isoweek")
  /// A month.
  public static let month = Self("month")
  /// A quarter of a year.
  public static let quarter = Self("quarter")
  /// A year.
  public static let year = Self("year")
  /// An ISO 8601 week-numbering year.
  public static let isoyear = Self("isoyear")
  /// The day of the week (1 is Sunday).
  public static let dayOfWeek = Self("dayofweek")
  /// The day of the year.
  public static let dayOfYear = Self("dayofyear")
}
