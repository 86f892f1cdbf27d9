import FirestoreTestSupport
import Foundation
import Testing

@testable import FirestoreClient

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `https` always verifies the server's certificate and name: a server with a self-signed
/// certificate (as an attacker in the middle would present) or one issued for another name
/// is refused, and one whose issuer is trusted is accepted. The servers are `openssl
/// s_server` processes with certificates made for the test.
@Suite(.serialized) struct TLSVerificationTests {
  /// A temporary directory with a test CA, a certificate it issued for `localhost` (and,
  /// when `withIPName`, for 127.0.0.1), and a self-signed one.
  final class Certificates: Sendable {
    let directory: URL

    init(withIPName: Bool = true) throws {
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
    static func make(withIPName: Bool = true) async throws -> Certificates {
      try await Blocking.run { try Certificates(withIPName: withIPName) }
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// Runs `openssl arguments…` in the directory to the end.
    func run(_ arguments: [String]) throws {
      let process = try start(arguments)
      process.waitUntilExit()
      try #require(process.terminationStatus == 0, "openssl \(arguments.first ?? "") failed")
    }

    /// Starts `openssl arguments…` in the directory, its standard output to `output` (or
    /// discarded).
    func start(_ arguments: [String], output: Pipe? = nil) throws -> Process {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
      process.arguments = ["openssl"] + arguments
      process.currentDirectoryURL = directory
      process.standardOutput = output ?? FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      return process
    }

    /// Runs `body` with the port of an `s_server` answering HTTP with `certificate`/`key`
    /// (once it says it accepts connections, `ACCEPT [::]:port`), and stops the server
    /// afterwards.
    func withServer(certificate: String, key: String, _ body: (_ port: Int) async throws -> Void) async throws {
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
    static func acceptedPort(_ output: FileHandle) -> (port: Int?, said: String) {
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

    /// Stops an `s_server` for good: SIGKILL, since a test runner may hand its children an
    /// ignored SIGTERM (`terminate()` then leaves them running). Its end is awaited on a
    /// thread of its own.
    static func stop(_ process: Process) async {
      kill(process.processIdentifier, SIGKILL)
      await Blocking.run { process.waitUntilExit() }
    }
  }

  @Test func certificateFromATrustedIssuerIsAccepted() async throws {
    let certificates = try await Certificates.make()
    try await certificates.withServer(certificate: "server.pem", key: "server.key") { port in
      let transport = CurlTransport(trustedCertificates: certificates.path("ca.pem"))
      for host in ["localhost", "127.0.0.1"] {
        let response = try await transport.send(HTTPRequest(method: "GET", url: URL(string: "https://\(host):\(port)/")!))
        #expect(response.status == 200)
        let body = String(decoding: try await response.collectBody(), as: UTF8.self)
        #expect(body.contains("s_server"), "\(body.prefix(200))")
      }
    }
  }

  @Test func selfSignedCertificateIsRefused() async throws {
    let certificates = try await Certificates.make()
    try await certificates.withServer(certificate: "self.pem", key: "self.key") { port in
      // Through the whole client, as production settings would go: the token never leaves.
      var settings = FirestoreSettings(environment: [:])
      settings.host = "localhost:\(port)"
      settings.tokenProvider = StaticTokenProvider("a-token-that-must-not-leave")
      let db = Firestore(projectID: "tls-test", settings: settings)
      let error = await #expect(throws: FirestoreError.self) { _ = try await db.document("a/b").getDocument(source: .server) }
      #expect(error?.code == .unavailable)
      #expect(error?.message.contains("certificate of localhost rejected") == true, "\(String(describing: error))")
      #expect(error?.message.contains("a-token-that-must-not-leave") == false)
    }
  }

  @Test func certificateForAnotherNameIsRefused() async throws {
    let certificates = try await Certificates.make(withIPName: false)
    try await certificates.withServer(certificate: "server.pem", key: "server.key") { port in
      let transport = CurlTransport(trustedCertificates: certificates.path("ca.pem"))
      // Issued for localhost only: reaching the same server as 127.0.0.1 must fail.
      let error = await #expect(throws: FirestoreError.self) {
        _ = try await transport.send(HTTPRequest(method: "GET", url: URL(string: "https://127.0.0.1:\(port)/")!))
      }
      #expect(error?.code == .unavailable)
      #expect(error?.message.contains("rejected") == true, "\(String(describing: error))")
    }
  }
}
