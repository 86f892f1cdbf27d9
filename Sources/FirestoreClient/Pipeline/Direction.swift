/// Which way a ``Ordering`` sorts.
public struct Direction: Sendable, Equatable, Hashable {
  /// `"ascending"` or `"descending"`, as the backend reads it.
  public let rawValue: String

  static let ascending = Direction(rawValue: "ascending")
  static let descending = Direction(rawValue: "descending")
}
