import Foundation

/// What one run of `firestore-bench` did.
struct BenchRun: CustomStringConvertible {
  /// The exit status.
  let status: Int32
  /// Standard output.
  let stdout: String
  /// Standard error.
  let stderr: String

  var description: String { "exit \(status)\nstdout: \(stdout)\nstderr: \(stderr)" }
}

/// Runs the built `firestore-bench` executable.
enum Bench {
  /// The executable, next to the test bundle in the build directory.
  static let executable: URL = {
    var candidates: [URL] = []
    if let url = Bundle.main.executableURL { candidates.append(url.deletingLastPathComponent()) }
    candidates.append(Bundle.main.bundleURL)
    candidates.append(Bundle.main.bundleURL.deletingLastPathComponent())
    let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    candidates.append(packageRoot.appendingPathComponent(".build/debug"))
    for directory in candidates {
      let url = directory.appendingPathComponent("firestore-bench")
      if FileManager.default.isExecutableFile(atPath: url.path) { return url }
    }
    return candidates[0].appendingPathComponent("firestore-bench")
  }()

  /// Runs `firestore-bench arguments…` to the end, without FIRESTORE_EMULATOR_HOST (so
  /// that nothing reaches an emulator by accident).
  static func run(_ arguments: [String]) async throws -> BenchRun {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    environment["FIRESTORE_EMULATOR_HOST"] = nil
    process.environment = environment
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    // Read both pipes to the end before waiting, so a full pipe cannot block the child.
    async let stdout = Task.detached { out.fileHandleForReading.readDataToEndOfFile() }.value
    async let stderr = Task.detached { err.fileHandleForReading.readDataToEndOfFile() }.value
    let (o, e) = await (stdout, stderr)
    process.waitUntilExit()
    return BenchRun(
      status: process.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self))
  }

  /// A `:runQuery` response body as the emulator writes it (pretty-printed), with
  /// `documents` articles of project `bench`.
  static func runQueryBody(documents: Int) -> String {
    let elements = (0..<documents).map { i in
      """
      {
        "document": {
          "name": "projects/bench/databases/(default)/documents/articles/a\(1000 + i)",
          "fields": {
            "title": { "stringValue": "Article \(i)" },
            "views": { "integerValue": "\(i * 7)" },
            "tags": { "arrayValue": { "values": [ { "stringValue": "swift" }, { "stringValue": "linux" } ] } },
            "publishedAt": { "timestampValue": "2024-01-01T00:\(10 + i % 50):00.123Z" }
          },
          "createTime": "2024-02-01T00:00:00.000001Z",
          "updateTime": "2024-02-01T00:00:00.000001Z"
        },
        "readTime": "2024-03-01T00:00:00.000002Z"
      }
      """
    }
    return "[" + elements.joined(separator: ",\n") + "]"
  }
}
