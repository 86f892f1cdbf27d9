import FirestoreMock
import FirestoreWire
import Foundation
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
  private let state = Locked((stdout: Data(), stderr: Data()))

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

/// Work that blocks its thread (a child process, key generation), run on a thread of its
/// own: blocking one of the few threads that run all the tests' tasks stalls them all.
enum Blocking {
  static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
      Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
    }
  }
}
