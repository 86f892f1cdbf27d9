/// Why the benchmark could not run: a bad command line (exit status 2) or a failed
/// scenario (exit status 1).
struct BenchFailure: Error, CustomStringConvertible {
  /// What went wrong, in one line.
  let description: String
  /// The command line was wrong.
  var isUsage = false

  init(_ description: String) { self.description = description }

  /// A bad command line.
  static func usage(_ description: String) -> BenchFailure {
    var failure = BenchFailure(description)
    failure.isUsage = true
    return failure
  }
}
