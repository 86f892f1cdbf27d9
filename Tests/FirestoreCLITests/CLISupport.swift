import FirestoreTestSupport
import FirestoreWire
import Foundation
import Testing

extension ProcessResult {
  /// Each stdout line parsed as JSON; a line that is not JSON fails the test.
  var json: [JSONValue] {
    lines.compactMap { line in
      do {
        return try JSONParser.parse(line)
      } catch {
        Issue.record("stdout line is not JSON: \(line)")
        return nil
      }
    }
  }
}

extension Backend {
  /// The backends the CLI tests run against: those the CLI reaches with `--emulator HOST`
  /// (not the TLS front, whose test CA the command line does not take).
  static let cli = all.filter { $0 != .http2 }

  /// Runs `firestore --emulator HOST --project PROJECT arguments…`.
  func run(_ project: String, _ arguments: [String], stdin: String? = nil) async throws -> ProcessResult {
    try await CLI.run(["--emulator", host, "--project", project] + arguments, stdin: stdin)
  }

  /// Starts `firestore --emulator HOST --project PROJECT arguments…`.
  func start(_ project: String, _ arguments: [String]) throws -> RunningProcess {
    try CLI.start(["--emulator", host, "--project", project] + arguments)
  }
}

/// Runs the built `firestore` executable as a user would.
enum CLI {
  /// The executable in the build directory.
  static let executable = BuiltExecutable.url("firestore")

  /// The environment of every run: the test's own, without Firestore settings that would
  /// change what a command talks to.
  static func environment(_ extra: [String: String]) -> [String: String] {
    var env = ProcessInfo.processInfo.environment
    for key in ["FIRESTORE_EMULATOR_HOST", "FIRESTORE_PROJECT", "GOOGLE_CLOUD_PROJECT", "GCLOUD_PROJECT", "GOOGLE_APPLICATION_CREDENTIALS"]
    {
      env[key] = nil
    }
    env.merge(extra) { $1 }
    return env
  }

  /// Runs `firestore arguments…` to the end, feeding `stdin`.
  static func run(_ arguments: [String], stdin: String? = nil, environment: [String: String] = [:]) async throws -> ProcessResult {
    let process = try start(arguments, stdin: stdin, environment: environment)
    return await process.finish()
  }

  /// Starts `firestore arguments…` without waiting for it.
  static func start(_ arguments: [String], stdin: String? = nil, environment: [String: String] = [:]) throws -> RunningProcess {
    try RunningProcess(executable, arguments, stdin: stdin, environment: self.environment(environment))
  }
}

extension JSONValue {
  /// The object without the given members (server-assigned times, for comparisons).
  func removing(_ keys: Set<String>) -> JSONValue {
    guard case .object(let members) = self else { return self }
    return .object(members.filter { !keys.contains($0.0) })
  }

  /// Parses a literal in a test.
  static func parse(_ text: String) -> JSONValue {
    do {
      return try JSONParser.parse(text)
    } catch {
      Issue.record("bad JSON literal in test: \(text)")
      return .null
    }
  }
}

/// Writes a temporary file in a directory of its own and returns its path; the test removes
/// both when done (`defer { removeTemporaryFile(path) }`).
func temporaryFile(_ contents: String, name: String = "data.ndjson") throws -> String {
  let dir = try makeTemporaryDirectory("firestore-cli")
  let url = dir.appendingPathComponent(name)
  try contents.write(to: url, atomically: true, encoding: .utf8)
  return url.path
}

/// Removes a file ``temporaryFile(_:name:)`` made, and its directory.
func removeTemporaryFile(_ path: String) {
  try? FileManager.default.removeItem(at: URL(fileURLWithPath: path).deletingLastPathComponent())
}
