import Foundation

/// A `firestore-mock-server` child process: the soak measures the client's memory, so the
/// server's (which keeps an hour of document history) lives in another process.
final class MockServerProcess {
  /// `HOST:PORT` the server listens on.
  let hostAndPort: String
  private let process: Process

  /// Starts the executable at `path` on a free port and waits for its "listening on" line.
  /// - Throws: `SoakFailure` when it cannot start or does not report an address in 30 s.
  init(executable path: String) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = ["--port", "0"]
    let output = Pipe()
    process.standardOutput = output
    do {
      try process.run()
    } catch {
      throw SoakFailure("cannot start \(path): \(error)")
    }
    var text = ""
    let deadline = Date().addingTimeInterval(30)
    while !text.contains("\n"), Date() < deadline {
      let chunk = output.fileHandleForReading.availableData
      if chunk.isEmpty { break }  // the server exited
      text += String(decoding: chunk, as: UTF8.self)
    }
    let prefix = "listening on http://"
    guard let line = text.split(separator: "\n").first, line.hasPrefix(prefix) else {
      process.terminate()
      throw SoakFailure("\(path) did not report its address (it printed \"\(text)\")")
    }
    self.hostAndPort = String(line.dropFirst(prefix.count))
    self.process = process
  }

  /// Stops the server and waits for it to exit.
  func stop() {
    guard process.isRunning else { return }
    process.terminate()
    process.waitUntilExit()
  }
}
