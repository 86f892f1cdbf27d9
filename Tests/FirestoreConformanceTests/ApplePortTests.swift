import FirestorePlatform
import FirestoreTestSupport
import Foundation
import Testing

@testable import FirestoreClient

/// Runs `apple-port` (Examples/ApplePort): the seeds' Firestore code and a program written
/// against the Apple SDK's API, built unchanged but for the imports and the making of the
/// instance, against each backend; and the restart test, where one process queues writes
/// with the network off and is killed, and the next one delivers them.
@Suite("Conformance: code written for the Apple SDK")
struct ApplePortTests {
  /// What one run printed.
  struct Run: CustomStringConvertible {
    let status: Int32
    let output: String
    var lines: [String] { output.split(separator: "\n").map(String.init) }
    var description: String { "exit \(status):\n\(output)" }
  }

  /// The executable, in the build directory.
  static let executable = BuiltExecutable.url("apple-port")

  /// Runs `apple-port arguments…` against `backend`'s project `project`, killing it after
  /// `limit`, or with SIGKILL as soon as its output has a line `killAfter`. The limit only
  /// catches a hang of the whole program, whose own waits each allow ``hangLimit``.
  private func run(
    _ arguments: [String], backend: Backend, project: String, limit: Duration = hangLimit * 5, killAfter: String? = nil
  ) async throws -> Run {
    Ledger.record(backend)
    var environment = ProcessInfo.processInfo.environment
    for key in ["GOOGLE_APPLICATION_CREDENTIALS", "GCLOUD_PROJECT", "CLOUDSDK_CONFIG"] { environment[key] = nil }
    environment["FIRESTORE_EMULATOR_HOST"] = backend.host
    environment["GOOGLE_CLOUD_PROJECT"] = project
    environment["APPLE_PORT_UID"] = "port-user"
    environment["APPLE_PORT_EMAIL"] = "port-user@example.com"
    // Under ThreadSanitizer: the ported code's own races are known (see the file).
    let suppressions = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Examples/ApplePort/tsan-suppressions.txt").path
    environment["TSAN_OPTIONS"] = [environment["TSAN_OPTIONS"], "suppressions=\(suppressions)"].compactMap { $0 }.joined(separator: " ")
    // Its Firestore.firestore() keeps a persistent cache, as the Apple SDK's does: in a
    // directory of this run's, which goes with it.
    let dataHome = FileManager.default.temporaryDirectory.appendingPathComponent("apple-port-data-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: dataHome) }
    environment["XDG_DATA_HOME"] = dataHome.path
    let output = FileManager.default.temporaryDirectory.appendingPathComponent("apple-port-\(UUID().uuidString).log")
    _ = FileManager.default.createFile(atPath: output.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: output) }
    let handle = try FileHandle(forWritingTo: output)
    let process = try ChildProcess(
      executable: Self.executable.path, arguments: arguments, environment: environment,
      standardOutput: .descriptor(handle.fileDescriptor), standardError: .descriptor(handle.fileDescriptor))
    let deadline = ContinuousClock.now + limit
    while process.isRunning && ContinuousClock.now < deadline {
      if let killAfter, String(decoding: try Data(contentsOf: output), as: UTF8.self).split(separator: "\n").contains(Substring(killAfter))
      {
        process.signal(SIGKILL)
        break
      }
      try await Task.sleep(for: .milliseconds(20))
    }
    if process.isRunning && killAfter == nil {
      process.signal(SIGTERM)
      Issue.record("apple-port \(arguments.joined(separator: " ")) still ran after \(limit)")
    }
    let termination = await Blocking.run { process.waitForExit() }
    try handle.close()
    let text = String(decoding: try Data(contentsOf: output), as: UTF8.self)
    return Run(status: termination.status, output: text)
  }

  private static func project() -> String { "demo-port-\(UInt32.random(in: 0...UInt32.max))" }

  /// The backends a program reaches through `FIRESTORE_EMULATOR_HOST` alone: not the TLS
  /// front, whose test CA the ported code (rightly) knows nothing of.
  static let plainBackends = Backend.all.filter { $0 != .http2 }

  @Test("the seeds' Firestore calls, unchanged, behave as their apps expect", arguments: Self.plainBackends)
  func seeds(_ backend: Backend) async throws {
    let result = try await run(["seeds"], backend: backend, project: Self.project())
    #expect(result.status == 0, "\(result)")
    #expect(result.lines.contains("seed000 ids=20 first=Article 24"), "\(result)")
    #expect(result.lines.contains("seed000 detail=Article 22 index=2"), "\(result)")
    #expect(result.lines.contains("seed001 name=Ada email=ada@example.com"), "\(result)")
    #expect(result.lines.contains { $0.hasPrefix("seed004 lists=") && $0.hasSuffix("equipment=[\"pot\"]") }, "\(result)")
    #expect(result.lines.last == "OK", "\(result)")
  }

  @Test(
    "a program written against the Apple SDK's API for values, spellings and offline writes runs unchanged", arguments: Self.plainBackends)
  func program(_ backend: Backend) async throws {
    let result = try await run(["program"], backend: backend, project: Self.project())
    #expect(result.status == 0, "\(result)")
    #expect(
      result.lines == [
        "values visits=42", "aggregate count=1", "codable Soup 20", "offline delivered visits=43 inSync>=2", "transaction visits=44",
        "terminated true", "OK",
      ], "\(result)")
  }

  @Test(
    "writes queued by a process killed with the network off are sent by the next process on the same cache, once and in order",
    arguments: Self.plainBackends)
  func restart(_ backend: Backend) async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("apple-port-restart-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let project = Self.project()
    let queued = try await run(
      ["offline-write", directory.path, "50"], backend: backend, project: project, killAfter: "queued 51 pending=true")
    #expect(queued.status == SIGKILL && queued.lines == ["queued 51 pending=true"], "\(queued)")
    // Nothing reached the server.
    let settings = FirestoreSettings.emulator(host: backend.host)
    settings.cache = .none
    let server = Firestore(projectID: project, settings: settings)
    #expect(try await server.collection("restart").count.getAggregation(source: .server).count == 0)
    let delivered = try await run(["deliver", directory.path], backend: backend, project: project)
    let indexed = "cache query with indexes found [\"d7\"]"
    #expect(delivered.lines == ["restored 51 pending=true", "delivered 51 counter=3", indexed, "OK"], "\(delivered)")
    // A third process has nothing left to send: each batch went once.
    let again = try await run(["deliver", directory.path], backend: backend, project: project)
    #expect(again.lines == ["restored 51 pending=false", "delivered 51 counter=3", indexed, "OK"], "\(again)")
    #expect(try await server.document("restart/counter").getDocument(source: .server).get("n") as? Int == 3)
  }
}
