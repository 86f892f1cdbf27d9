import FirestoreMock
import FirestoreWire
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

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
  private static let written = Locked(Set<String>())

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
