import FirestoreTestSupport
import FirestoreWire
import Foundation
import Testing

extension CLITests {
  /// `--host`, `--ca-file`, `--token` and proxies against the emulator's TLS + HTTP/2 front
  /// (`nghttpx`) and a real proxy (`tinyproxy`), both started by `scripts/test.sh`.
  @Suite("firestore: any endpoint, through TLS fronts and proxies", .enabled(if: TestFront.isAvailable))
  struct CLITransportTests {
    /// `firestore --host FRONT --ca-file CA --token owner --project P arguments…`.
    private func run(_ project: String, _ arguments: [String], environment: [String: String] = [:], trust: Bool = true)
      async throws -> ProcessResult
    {
      Ledger.record(.emulator)
      let endpoint =
        ["--host", TestFront.host, "--token", "owner", "--project", project] + (trust ? ["--ca-file", TestFront.certificateAuthority] : [])
      return try await CLI.run(endpoint + arguments, environment: environment)
    }

    @Test("--host with --ca-file and --token reaches the emulator through its TLS + HTTP/2 front")
    func hostCAFileAndToken() async throws {
      let project = Backend.emulator.project()
      let written = try await run(project, ["set", "fronts/a", #"{"via":"nghttpx"}"#])
      #expect(written.status == 0, "\(written)")
      let read = try await run(project, ["get", "fronts/a"])
      #expect(read.json.first?["data"] == .parse(#"{"via":"nghttpx"}"#), "\(read)")
      // Without the test CA the front's certificate is refused, and nothing is sent.
      let untrusted = try await run(project, ["get", "fronts/a"], trust: false)
      #expect(untrusted.status == 1)
      #expect(untrusted.stderr.contains("the certificate of localhost rejected"), "\(untrusted)")
    }

    @Test("HTTPS_PROXY sends the requests through the proxy, NO_PROXY bypasses it, --proxy sets one outright")
    func proxies() async throws {
      let project = Backend.emulator.project()
      let written = try await run(project, ["set", "fronts/p", #"{"n":1}"#])
      #expect(written.status == 0, "\(written)")

      var before = TestFront.tunnels
      let proxied = try await run(project, ["get", "fronts/p"], environment: ["HTTPS_PROXY": TestFront.proxy])
      #expect(proxied.json.first?["data"] == .parse(#"{"n":1}"#), "\(proxied)")
      #expect(TestFront.tunnels > before, "HTTPS_PROXY: the proxy opened no tunnel to \(TestFront.host)")

      before = TestFront.tunnels
      let bypassed = try await run(project, ["get", "fronts/p"], environment: ["HTTPS_PROXY": TestFront.proxy, "NO_PROXY": "localhost"])
      #expect(bypassed.json.first?["data"] == .parse(#"{"n":1}"#), "\(bypassed)")
      #expect(TestFront.tunnels == before, "NO_PROXY=localhost: the request still went through the proxy")

      before = TestFront.tunnels
      let flagged = try await run(project, ["get", "fronts/p", "--proxy", TestFront.proxy])
      #expect(flagged.json.first?["data"] == .parse(#"{"n":1}"#), "\(flagged)")
      #expect(TestFront.tunnels > before, "--proxy: the proxy opened no tunnel to \(TestFront.host)")
    }
  }
}

/// The emulator's TLS + HTTP/2 front and the proxy that `scripts/test.sh` starts.
enum TestFront {
  static let isAvailable = TestProxy.isAvailable
  static let host = HTTP2Front.host ?? ""
  static let certificateAuthority = HTTP2Front.certificateAuthority ?? ""
  static let proxy = TestProxy.url ?? ""

  /// How many tunnels to the front the proxy has opened so far.
  static var tunnels: Int { TestProxy.tunnels(to: host) }
}
