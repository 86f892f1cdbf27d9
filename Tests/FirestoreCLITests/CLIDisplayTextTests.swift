import FirestoreMock
import FirestoreTestSupport
import Foundation
import Testing

extension CLITests {
  /// What reaches the terminal from servers, files and arguments: quoted in part, with
  /// control characters spelled out and no password or token.
  @Suite("firestore: error text as it may be shown")
  struct CLIDisplayTextTests {
    @Test("a 100,000-digit integer in data is quoted by its start, and the problem is named")
    func hugeInteger() async throws {
      let digits = String(repeating: "1", count: 100_000)
      let result = try await CLI.run(["--mock", "set", "c/d", #"{"n":\#(digits)}"#])
      #expect(result.status == 2, "\(result.status)")
      #expect(result.stderr.utf8.count < 1000, "\(result.stderr.prefix(300))")
      #expect(result.stderr.contains("(100000 digits) does not fit in 64 bits"), "\(result.stderr.prefix(1000))")
      #expect(result.stderr.filter { $0 == "\n" }.count == 1)
    }

    @Test("a server error message with ESC, OSC and BEL reaches stderr spelled out")
    func controlCharactersFromTheServer() async throws {
      let server = try MockFirestoreServer.start()
      defer { server.stop() }
      let hostile = "denied \u{1B}]0;pwned\u{07}\u{1B}[2J\u{1B}[31mred\u{9B}1m\r"
      server.faults.add(
        FaultRule(route: "GET ", fault: .error(status: 403, grpcStatus: "PERMISSION_DENIED", message: hostile), remaining: 1))
      let result = try await CLI.run(["--emulator", server.hostAndPort, "--project", "display", "get", "c/d"])
      #expect(result.status == 1, "\(result)")
      #expect(
        result.stderr.hasPrefix("error: PERMISSION_DENIED: denied \\u{1B}]0;pwned\\u{7}\\u{1B}[2J\\u{1B}[31mred\\u{9B}1m\\u{D}"),
        "\(result)")
      #expect(!result.stderr.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(result)")
      #expect(!result.stderr.unicodeScalars.contains { (0x7F..<0xA0).contains($0.value) }, "\(result)")
    }

    /// A proxy URL pasted with its password: the usage error quotes it, libcurl's own
    /// message quotes it, and neither may print the password.
    @Test("a proxy password never reaches stderr, whatever is wrong with the proxy")
    func proxyPassword() async throws {
      let noBypass = ["NO_PROXY": "", "no_proxy": ""]
      let given: [([String], [String: String], Int32)] = [
        (["--mock", "get", "a/b", "--proxy", "http://user:s3cr3t@[bad"], [:], 2),
        (["--mock", "get", "a/b", "--proxy", "socks9://user:s3cr3t@127.0.0.1:1"], [:], 2),
        (["--mock", "get", "a/b", "--proxy", "user:s3cr3t@127.0.0.1:1"], [:], 2),
        // Through the environment, libcurl reads the proxy itself and its message names it.
        (
          ["--host", "example.invalid", "--project", "p", "--token", "tok", "get", "a/b"],
          ["HTTPS_PROXY": "socks9://user:s3cr3t@127.0.0.1:1"], 1
        ),
        (["--host", "example.invalid", "--project", "p", "--token", "tok", "get", "a/b"], ["HTTPS_PROXY": "http://user:s3cr3t@[bad"], 1),
        (["--host", "example.invalid", "--project", "p", "--token", "tok", "get", "a/b"], ["HTTPS_PROXY": "user:s3cr3t@[bad"], 1),
      ]
      for (arguments, environment, status) in given {
        let result = try await CLI.run(arguments, environment: environment.merging(noBypass) { a, _ in a })
        #expect(result.status == status, "\(arguments) \(environment): \(result)")
        #expect(result.stderr.hasPrefix("error: "), "\(arguments) \(environment): \(result)")
        #expect(!result.stderr.contains("s3cr3t"), "\(arguments) \(environment): \(result)")
      }
    }

    @Test("a server error echoing the --token does not print it")
    func echoedToken() async throws {
      let server = try MockFirestoreServer.start()
      defer { server.stop() }
      let token = "ya29.cli-token-echoed-back"
      server.faults.add(
        FaultRule(
          route: "GET ", fault: .error(status: 401, grpcStatus: "UNAUTHENTICATED", message: "bad token Bearer \(token)"), remaining: 2))
      let result = try await CLI.run(["--emulator", server.hostAndPort, "--project", "display", "--token", token, "get", "c/d"])
      #expect(result.status == 1, "\(result)")
      #expect(!result.stderr.contains(token), "\(result)")
      #expect(result.stderr.contains("bad token Bearer <redacted>"), "\(result)")
    }
  }
}
