import Foundation

/// The names the system shows for this process's threads (what `top -H`, `perf` and
/// debuggers list): on Linux, each thread's `comm`, at most 15 bytes. Empty where the
/// system does not show them this way.
public enum ThreadNames {
  /// The names of the process's threads now.
  public static func current() -> Set<String> {
    #if os(Linux)
      let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
      return Set(
        tasks.compactMap { try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8) }.map {
          $0.trimmingCharacters(in: .newlines)
        })
    #else
      return []
    #endif
  }
}
