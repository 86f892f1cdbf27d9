/// Why a command-line tool of the package (the benchmark, the soak) could not do its job:
/// a bad command line (exit status 2) or a failed run (exit status 1).
public struct ToolFailure: Error, CustomStringConvertible {
  /// What went wrong, in one line.
  public let description: String
  /// The command line was wrong.
  public var isUsage = false

  /// A failed run.
  public init(_ description: String) { self.description = description }

  /// A bad command line.
  public static func usage(_ description: String) -> ToolFailure {
    var failure = ToolFailure(description)
    failure.isUsage = true
    return failure
  }
}
