/// Why the soak could not run or did not pass.
struct SoakFailure: Error, CustomStringConvertible {
  /// What went wrong, in one line.
  let description: String
  /// The command line was wrong (exit status 2 rather than 1).
  var isUsage = false

  init(_ description: String) { self.description = description }

  /// A bad command line.
  static func usage(_ description: String) -> SoakFailure {
    var failure = SoakFailure(description)
    failure.isUsage = true
    return failure
  }
}
