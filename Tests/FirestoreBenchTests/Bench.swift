import FirestoreTestSupport
import Foundation

/// Runs the built `firestore-bench` executable.
enum Bench {
  /// The executable in the build directory.
  static let executable = BuiltExecutable.url("firestore-bench")

  /// Runs `firestore-bench arguments…` to the end, without FIRESTORE_EMULATOR_HOST (so
  /// that nothing reaches an emulator by accident).
  static func run(_ arguments: [String]) async throws -> ProcessResult {
    var environment = ProcessInfo.processInfo.environment
    environment["FIRESTORE_EMULATOR_HOST"] = nil
    return try await RunningProcess.run(executable, arguments, environment: environment)
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
