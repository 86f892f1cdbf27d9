import Foundation

/// Where the soak prints: lines go straight to the file descriptor, so a log file (CI)
/// shows progress as it happens rather than when the buffer fills or the process exits.
enum Console {
  /// Writes `line` and a line break to standard output.
  static func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
  }
}
