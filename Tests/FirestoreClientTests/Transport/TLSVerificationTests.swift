import Foundation
import Testing

@testable import FirestoreClient

/// `https` always verifies the server's certificate: a server with a self-signed one (as an
/// attacker in the middle would present) is refused, and nothing is read from it.
@Suite struct TLSVerificationTests {
  /// Runs `openssl`, failing the test when it cannot.
  @discardableResult
  func openssl(_ arguments: [String], in directory: URL) throws -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["openssl"] + arguments
    process.currentDirectoryURL = directory
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    return process
  }

  /// A port nothing listens on right now.
  func freePort() throws -> Int {
    let server = try RawHTTPServer { _, _ in }
    defer { server.stop() }
    return server.port
  }

  @Test func selfSignedCertificateIsRefused() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tls-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let keygen = try openssl(
      ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "key.pem", "-out", "cert.pem", "-days", "1", "-subj", "/CN=localhost"],
      in: directory)
    keygen.waitUntilExit()
    try #require(keygen.terminationStatus == 0, "openssl could not make a certificate")
    let port = try freePort()
    let server = try openssl(["s_server", "-accept", "\(port)", "-cert", "cert.pem", "-key", "key.pem", "-www", "-quiet"], in: directory)
    defer { server.terminate() }
    // Wait until it accepts connections.
    let deadline = ContinuousClock.now + .seconds(10)
    while ContinuousClock.now < deadline {
      if let probe = try? SocketConnection.connect(to: .init(host: "127.0.0.1", port: port), timeout: .seconds(1)) {
        probe.close()
        break
      }
      try await Task.sleep(for: .milliseconds(50))
    }

    var settings = FirestoreSettings(environment: [:])
    settings.host = "localhost:\(port)"
    settings.tokenProvider = StaticTokenProvider("a-token-that-must-not-leave")
    settings.timeout = .seconds(10)
    let db = Firestore(projectID: "tls-test", settings: settings)
    let error = await #expect(throws: FirestoreError.self) { _ = try await db.document("a/b").getDocument(source: .server) }
    #expect(error?.code == .unavailable)
    #expect(
      error?.message.localizedCaseInsensitiveContains("certificate") == true || error?.message.contains("SSL") == true,
      "\(String(describing: error))")
  }
}
