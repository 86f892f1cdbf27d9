/// What one run of a child process did.
public struct ProcessResult: Sendable, CustomStringConvertible {
  /// The exit status (128 + signal when killed).
  public let status: Int32
  /// Standard output.
  public let stdout: String
  /// Standard error.
  public let stderr: String

  /// Standard output's non-empty lines.
  public var lines: [String] {
    stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty }
  }

  public var description: String { "exit \(status)\nstdout: \(stdout)\nstderr: \(stderr)" }
}
