import FirestoreTestSupport
import Foundation
import Testing

@testable import FirestoreClient

/// `https` always verifies the server's certificate and name: a server with a self-signed
/// certificate (as an attacker in the middle would present) or one issued for another name
/// is refused, and one whose issuer is trusted is accepted. The servers are `openssl
/// s_server` processes with certificates made for the test (``TestCertificates``).
@Suite(.serialized) struct TLSVerificationTests {
  @Test func certificateFromATrustedIssuerIsAccepted() async throws {
    let certificates = try await TestCertificates.make()
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
    let certificates = try await TestCertificates.make()
    try await certificates.withServer(certificate: "self.pem", key: "self.key") { port in
      // Through the whole client, as production settings would go: the token never leaves.
      let settings = FirestoreSettings(environment: [:])
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
    let certificates = try await TestCertificates.make(withIPName: false)
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
