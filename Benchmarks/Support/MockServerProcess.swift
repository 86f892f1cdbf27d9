import FirestorePlatform
import Foundation

/// A `firestore-mock-server` child process, for measurements that must not count the
/// server's memory or CPU as the client's: the soak (which keeps an hour of document
/// history in the server) and `firestore-bench stream100k` (100,000 documents).
///
/// ```swift
/// let server = try MockServerProcess(executable: "/path/to/firestore-mock-server")
/// defer { server.stop() }
/// let db = Firestore(projectID: "demo", settings: .emulator(host: server.hostAndPort))
/// ```
public final class MockServerProcess {
  /// Why the server could not be started.
  public struct StartError: Error, CustomStringConvertible {
    /// What went wrong, in one line.
    public let description: String
  }

  /// `HOST:PORT` the server listens on.
  public let hostAndPort: String
  /// The child's process ID.
  public var processIdentifier: Int32 { process.processIdentifier }
  private let process: ChildProcess

  /// Starts the executable at `path` on a free port and waits for its "listening on" line.
  /// - Throws: ``StartError`` when it cannot start or does not report an address in 30 s.
  public init(executable path: String) throws {
    let output = Pipe()
    let process: ChildProcess
    do {
      process = try ChildProcess(
        executable: path, arguments: ["--port", "0"], environment: ProcessInfo.processInfo.environment,
        standardOutput: .descriptor(output.fileHandleForWriting.fileDescriptor), standardError: .descriptor(2))
    } catch {
      throw StartError(description: "\(error)")
    }
    try? output.fileHandleForWriting.close()
    var text = ""
    let deadline = Date().addingTimeInterval(30)
    while !text.contains("\n"), Date() < deadline {
      let chunk = output.fileHandleForReading.availableData
      if chunk.isEmpty { break }  // the server exited
      text += String(decoding: chunk, as: UTF8.self)
    }
    let prefix = "listening on http://"
    guard let line = text.split(separator: "\n").first, line.hasPrefix(prefix) else {
      process.signal(SIGTERM)
      process.waitForExit()
      throw StartError(description: "\(path) did not report its address (it printed \"\(text)\")")
    }
    self.hostAndPort = String(line.dropFirst(prefix.count))
    self.process = process
  }

  /// Starts the executable at `path`, or else the one beside the running executable, for
  /// `purpose` (a scenario's name, said in the error).
  /// - Throws: ``StartError`` naming the missing executable and how to build it.
  public static func start(_ path: String?, for purpose: String) throws -> MockServerProcess {
    let path = path ?? siblingExecutable
    guard FileManager.default.isExecutableFile(atPath: path) else {
      throw StartError(
        description: "\(purpose) needs the firestore-mock-server executable at \(path): build it "
          + "(swift build -c release --product firestore-mock-server) or pass --mock-server PATH")
    }
    return try MockServerProcess(executable: path)
  }

  /// The `firestore-mock-server` beside the running executable (`swift build` puts every
  /// product of a configuration in one directory).
  public static var siblingExecutable: String {
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("firestore-mock-server").path
  }

  /// Stops the server and waits for it to exit.
  public func stop() {
    guard process.isRunning else { return }
    process.signal(SIGTERM)
    process.waitForExit()
  }
}
