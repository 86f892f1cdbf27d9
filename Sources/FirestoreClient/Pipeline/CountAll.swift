/// Counts the documents (`count()` with no argument).
///
/// ```swift
/// .aggregate([CountAll().as("total")])
/// ```
public final class CountAll: AggregateFunction, @unchecked Sendable {
  /// Counts every document.
  public init() { super.init(functionName: "count", args: []) }
}
