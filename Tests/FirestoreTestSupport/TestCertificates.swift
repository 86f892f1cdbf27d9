import FirestorePlatform
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A temporary directory with a test CA (`ca.pem`), a certificate it issued for `localhost`
/// (and, when made `withIPName`, for 127.0.0.1: `server.pem`, `server.key`), and a
/// self-signed one (`self.pem`, `self.key`), made with openssl(1); and `openssl s_server`
/// processes that present them, for tests of TLS verification.
public final class TestCertificates: Sendable {
  /// Where the files are.
  public let directory: URL

  private init(withIPName: Bool) throws {
    directory = try makeTemporaryDirectory("tls")
    let names = withIPName ? "subjectAltName=DNS:localhost,IP:127.0.0.1" : "subjectAltName=DNS:localhost"
    try names.write(to: directory.appendingPathComponent("names.ext"), atomically: true, encoding: .utf8)
    try run([
      "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "1", "-subj", "/CN=Test CA",
    ])
    try run(["req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=localhost"])
    try run([
      "x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out", "server.pem", "-days", "1",
      "-extfile", "names.ext",
    ])
    try run([
      "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "self.key", "-out", "self.pem", "-days", "1", "-subj", "/CN=localhost",
    ])
  }

  /// Makes the certificates on a thread of its own: openssl's key generation blocks.
  public static func make(withIPName: Bool = true) async throws -> TestCertificates {
    try await Blocking.run { try TestCertificates(withIPName: withIPName) }
  }

  deinit { try? FileManager.default.removeItem(at: directory) }

  /// The path of one of the files, such as `"ca.pem"`.
  public func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

  /// Runs `openssl arguments…` in the directory to the end.
  private func run(_ arguments: [String]) throws {
    let process = try start(arguments)
    let termination = process.waitForExit()
    try #require(termination.shellStatus == 0, "openssl \(arguments.first ?? "") failed")
  }

  /// Starts `openssl arguments…` (found through `PATH`) in the directory, its standard
  /// output to `output` (or discarded).
  private func start(_ arguments: [String], output: Pipe? = nil) throws -> ChildProcess {
    let process = try ChildProcess(
      executable: "/usr/bin/env", arguments: ["openssl"] + arguments, environment: ProcessInfo.processInfo.environment,
      directory: directory.path, standardOutput: output.map { .descriptor($0.fileHandleForWriting.fileDescriptor) } ?? .null)
    try? output?.fileHandleForWriting.close()
    return process
  }

  /// Runs `body` with the port of an `s_server` answering HTTP with `certificate`/`key`
  /// (once it says it accepts connections, `ACCEPT [::]:port`), and stops the server
  /// afterwards.
  public func withServer(certificate: String, key: String, _ body: (_ port: Int) async throws -> Void) async throws {
    let output = Pipe()
    let process = try start(["s_server", "-accept", "0", "-cert", certificate, "-key", key, "-www"], output: output)
    let (found, said) = await Blocking.run { Self.acceptedPort(output.fileHandleForReading) }
    do {
      let port = try #require(found, "openssl s_server ended before accepting connections: \(said)")
      try await body(port)
    } catch {
      await Self.stop(process)
      throw error
    }
    await Self.stop(process)
  }

  /// Reads `s_server`'s output up to its `ACCEPT` line and returns the port there, or
  /// `nil` and what it said if it ends first. The rest is read and dropped on a thread of
  /// its own, so that the server never blocks on a full pipe.
  private static func acceptedPort(_ output: FileHandle) -> (port: Int?, said: String) {
    var text = ""
    while true {
      let data = output.availableData
      guard !data.isEmpty else { return (nil, text) }
      text += String(decoding: data, as: UTF8.self)
      let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()  // complete lines
      if let line = lines.first(where: { $0.hasPrefix("ACCEPT") }), let port = line.split(separator: ":").last.flatMap({ Int($0) }) {
        Thread.detachNewThread { while !output.availableData.isEmpty {} }
        return (port, text)
      }
    }
  }

  /// Stops an `s_server` for good (SIGKILL, which nothing can ignore); its end is awaited
  /// on a thread of its own.
  private static func stop(_ process: ChildProcess) async {
    process.signal(SIGKILL)
    _ = await Blocking.run { process.waitForExit() }
  }
}
