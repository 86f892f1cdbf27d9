import FirestoreMock
import FirestoreWire
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What one run of the `firestore` executable did.
struct CLIResult: Sendable, CustomStringConvertible {
  /// The exit status (128 + signal when killed).
  let status: Int32
  /// Standard output.
  let stdout: String
  /// Standard error.
  let stderr: String

  /// Standard output's lines (no trailing empty line).
  var lines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty } }

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

  var description: String { "exit \(status)\nstdout: \(stdout)\nstderr: \(stderr)" }
}

/// Runs the built `firestore` executable as a user would.
enum CLI {
  /// The executable, next to the test bundle in the build directory.
  static let executable: URL = {
    var candidates: [URL] = []
    if let url = Bundle.main.executableURL { candidates.append(url.deletingLastPathComponent()) }
    candidates.append(Bundle.main.bundleURL)
    candidates.append(Bundle.main.bundleURL.deletingLastPathComponent())
    let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    candidates.append(packageRoot.appendingPathComponent(".build/debug"))
    for directory in candidates {
      let url = directory.appendingPathComponent("firestore")
      if FileManager.default.isExecutableFile(atPath: url.path) { return url }
    }
    return candidates[0].appendingPathComponent("firestore")
  }()

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
  static func run(_ arguments: [String], stdin: String? = nil, environment: [String: String] = [:]) async throws -> CLIResult {
    let process = try start(arguments, stdin: stdin, environment: environment)
    return await process.finish()
  }

  /// Starts `firestore arguments…` without waiting for it.
  static func start(_ arguments: [String], stdin: String? = nil, environment: [String: String] = [:]) throws -> RunningCLI {
    try RunningCLI(arguments: arguments, stdin: stdin, environment: self.environment(environment))
  }
}

/// The bytes a process wrote so far, shared with the threads that read its pipes.
final class OutputBuffer: Sendable {
  private let state = Mutex((stdout: Data(), stderr: Data()))

  func append(_ data: Data, toStdout: Bool) { state.withLock { toStdout ? $0.stdout.append(data) : $0.stderr.append(data) } }

  func withLock<T: Sendable>(_ body: (inout (stdout: Data, stderr: Data)) -> T) -> T { state.withLock { body(&$0) } }
}

/// A started `firestore` process whose output is collected as it comes.
final class RunningCLI: Sendable {
  private let process: Process
  private let output = OutputBuffer()
  private let done = DispatchGroup()

  init(arguments: [String], stdin: String?, environment: [String: String]) throws {
    let process = Process()
    process.executableURL = CLI.executable
    process.arguments = arguments
    process.environment = environment
    let out = Pipe()
    let err = Pipe()
    let input = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = input
    self.process = process
    try process.run()
    for (pipe, isOut) in [(out, true), (err, false)] {
      done.enter()
      Thread.detachNewThread { [output, done] in
        let handle = pipe.fileHandleForReading
        while true {
          let data = handle.availableData
          if data.isEmpty { break }
          output.append(data, toStdout: isOut)
        }
        done.leave()
      }
    }
    if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
    try input.fileHandleForWriting.close()
  }

  /// Standard output so far.
  var stdoutSoFar: String { output.withLock { String(decoding: $0.stdout, as: UTF8.self) } }

  /// Waits until standard output holds `count` lines (or `seconds` pass).
  func waitForLines(_ count: Int, seconds: Double = 30) async throws {
    let deadline = Date().addingTimeInterval(seconds)
    while stdoutSoFar.filter({ $0 == "\n" }).count < count && Date() < deadline && process.isRunning {
      try await Task.sleep(for: .milliseconds(20))
    }
  }

  /// Sends a signal.
  func signal(_ number: Int32) { kill(process.processIdentifier, number) }

  /// Waits for the process to end and returns what it did.
  func finish() async -> CLIResult {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      DispatchQueue.global().async { [process, done] in
        process.waitUntilExit()
        done.wait()
        continuation.resume()
      }
    }
    let status = process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
    return output.withLock {
      CLIResult(status: status, stdout: String(decoding: $0.stdout, as: UTF8.self), stderr: String(decoding: $0.stderr, as: UTF8.self))
    }
  }
}

/// A server the CLI tests run against: the mock server (started in the test process and
/// reached with `--emulator`) and, when `FIRESTORE_EMULATOR_HOST` is set, the emulator.
enum CLIBackend: String, Sendable, CaseIterable, CustomTestStringConvertible {
  case mock
  case emulator

  static let emulatorHost = ProcessInfo.processInfo.environment["FIRESTORE_EMULATOR_HOST"].flatMap { $0.isEmpty ? nil : $0 }

  /// The backends of this run.
  static let all: [CLIBackend] = emulatorHost == nil ? [.mock] : [.mock, .emulator]

  /// The in-process mock server, started once.
  static let mockServer: MockFirestoreServer = {
    do {
      return try MockFirestoreServer.start()
    } catch {
      fatalError("cannot start the mock server: \(error)")
    }
  }()

  var testDescription: String { rawValue }

  /// `host:port`.
  var host: String {
    switch self {
    case .mock: return Self.mockServer.hostAndPort
    case .emulator: return Self.emulatorHost ?? "127.0.0.1:1"
    }
  }

  /// A fresh project (an empty database) for one test.
  func project(_ hint: String = #function) -> String {
    Ledger.record(self)
    let clean = hint.lowercased().filter { $0.isLetter || $0.isNumber }
    return "demo-cli-\(clean.prefix(20))-\(UInt32.random(in: 0...UInt32.max))"
  }

  /// Runs `firestore --emulator HOST --project PROJECT arguments…`.
  func run(_ project: String, _ arguments: [String], stdin: String? = nil) async throws -> CLIResult {
    try await CLI.run(["--emulator", host, "--project", project] + arguments, stdin: stdin)
  }

  /// Starts `firestore --emulator HOST --project PROJECT arguments…`.
  func start(_ project: String, _ arguments: [String]) throws -> RunningCLI {
    try CLI.start(["--emulator", host, "--project", project] + arguments)
  }
}

/// Records the tests that reached the emulator, for `scripts/test.sh` to count (the same
/// ledger the conformance suite writes).
enum Ledger {
  private static let path = ProcessInfo.processInfo.environment["FIRESTORE_TEST_LEDGER"]
  private static let written = Mutex(Set<String>())

  static func record(_ backend: CLIBackend) {
    guard backend == .emulator, let path, let test = Test.current else { return }
    let line = "\(test.id)\n"
    guard written.withLock({ $0.insert(line).inserted }) else { return }
    let fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0o644)
    guard fd >= 0 else { return }
    _ = line.withCString { write(fd, $0, strlen($0)) }
    close(fd)
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

/// Writes a temporary file and returns its path.
func temporaryFile(_ contents: String, name: String = "data.ndjson") throws -> String {
  let dir = FileManager.default.temporaryDirectory.appendingPathComponent("firestore-cli-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
  let url = dir.appendingPathComponent(name)
  try contents.write(to: url, atomically: true, encoding: .utf8)
  return url.path
}

/// The CLI suites, one process at a time: each test already runs several processes in a
/// row, and running them side by side would only load a shared machine for no gain.
@Suite("firestore command line", .serialized)
struct CLITests {}
