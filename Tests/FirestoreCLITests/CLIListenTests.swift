import FirestoreMock
import FirestoreTestSupport
import FirestoreWire
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension CLITests {
  @Suite("firestore: listen")
  struct CLIListenTests {
    @Test("a query listen prints one line per snapshot and stops after --max-snapshots", arguments: Backend.cli)
    func queryListen(_ backend: Backend) async throws {
      let p = backend.project()
      let seed = #"{"path":"cities/c1","data":{"state":"CA","pop":1}}"# + "\n" + #"{"path":"cities/c2","data":{"state":"NY","pop":2}}"#
      #expect(try await backend.run(p, ["import"], stdin: seed).status == 0)
      let listen = try backend.start(
        p, ["listen", "cities", "--where", #"state == "CA""#, "--order-by", "pop", "--max-snapshots", "4", "--timeout", "60"])
      try await listen.waitForLines(1)
      #expect(try await backend.run(p, ["set", "cities/c3", #"{"state":"CA","pop":3}"#]).status == 0)
      try await listen.waitForLines(2)
      #expect(try await backend.run(p, ["update", "cities/c1", #"{"pop":{"$increment":10}}"#]).status == 0)
      try await listen.waitForLines(3)
      #expect(try await backend.run(p, ["delete", "cities/c3"]).status == 0)
      let result = await listen.finish()
      #expect(result.status == 0, "\(result)")
      #expect(result.stderr.isEmpty, "\(result)")
      let snapshots = result.json
      try #require(snapshots.count == 4, "\(result)")
      for snapshot in snapshots {
        #expect(snapshot.objectValue?.map(\.0) == ["readTime", "fromCache", "hasPendingWrites", "size", "changes"])
        #expect(snapshot["fromCache"] == .bool(false) && snapshot["hasPendingWrites"] == .bool(false))
        #expect(snapshot["readTime"]?.stringValue != nil)
      }
      #expect(snapshots.map { $0["size"] } == [.integer(1), .integer(2), .integer(2), .integer(1)])
      #expect(
        snapshots[0]["changes"]
          == .parse(#"[{"type":"added","path":"cities/c1","oldIndex":-1,"newIndex":0,"data":{"pop":1,"state":"CA"}}]"#))
      #expect(
        snapshots[1]["changes"]
          == .parse(#"[{"type":"added","path":"cities/c3","oldIndex":-1,"newIndex":1,"data":{"pop":3,"state":"CA"}}]"#))
      // c1's pop became 11, so it moves behind c3.
      #expect(
        snapshots[2]["changes"]
          == .parse(#"[{"type":"modified","path":"cities/c1","oldIndex":0,"newIndex":1,"data":{"pop":11,"state":"CA"}}]"#))
      #expect(
        snapshots[3]["changes"]
          == .parse(#"[{"type":"removed","path":"cities/c3","oldIndex":0,"newIndex":-1,"data":{"pop":3,"state":"CA"}}]"#))
    }

    @Test("a document listen stops at --timeout, and on SIGINT, with exit 0", arguments: Backend.cli)
    func documentListen(_ backend: Backend) async throws {
      let p = backend.project()
      #expect(try await backend.run(p, ["set", "users/u1", #"{"name":"Ada"}"#]).status == 0)
      let timed = try await backend.run(p, ["listen", "users/u1", "--timeout", "1.5", "--format", "rest"])
      #expect(timed.status == 0, "\(timed)")
      #expect(
        timed.json.first?["changes"]
          == .parse(#"[{"type":"added","path":"users/u1","oldIndex":-1,"newIndex":0,"fields":{"name":{"stringValue":"Ada"}}}]"#), "\(timed)"
      )

      let open = try backend.start(p, ["listen", "users/u2"])
      try await open.waitForLines(1)
      #expect(try await backend.run(p, ["set", "users/u2", #"{"n":1}"#]).status == 0)
      try await open.waitForLines(2)
      open.signal(SIGINT)
      let interrupted = await open.finish()
      #expect(interrupted.status == 0, "\(interrupted)")
      #expect(interrupted.stderr.isEmpty, "\(interrupted)")
      try #require(interrupted.json.count == 2, "\(interrupted)")
      #expect(interrupted.json[0]["size"] == .integer(0))
      #expect(interrupted.json[0]["changes"] == .array([]))
      #expect(interrupted.json[1]["size"] == .integer(1))
      #expect(interrupted.json[1]["changes"]?.arrayValue?.first?["type"] == .string("added"))
    }

    @Test("a listen to a host that cannot be reached prints the connection failure and exits 1")
    func hostUnreachable() async throws {
      // Nothing listens on port 1; the one snapshot, from the cache, comes only once the
      // stream's first attempt failed, so the run ends after the failure without any clock.
      let result = try await CLI.run([
        "--emulator", "127.0.0.1:1", "--project", "unreachable", "listen", "users/u1", "--max-snapshots", "1",
      ])
      #expect(result.status == 1, "\(result)")
      #expect(result.json.map { $0["fromCache"] } == [.bool(true)], "\(result)")
      #expect(result.stderr.hasPrefix("error: UNAVAILABLE: "), "\(result)")
      #expect(result.stderr.contains("127.0.0.1"), "the host is named: \(result)")
      #expect(result.stderr.filter { $0 == "\n" }.count == 1, "\(result)")
    }

    @Test("a listen whose every handshake is refused (HTTP 403) prints the permission error and exits 1")
    func handshakeRefused() async throws {
      let server = try MockFirestoreServer.start()
      defer { server.stop() }
      server.faults.add(
        FaultRule(
          route: "POST /google.firestore.v1.Firestore/Listen/channel?CVER=",
          fault: .error(status: 403, grpcStatus: "PERMISSION_DENIED", message: "the caller may not read this project")))
      // The listener's one snapshot comes from the cache, and only once the stream failed:
      // the run ends after the failure without any clock.
      let result = try await CLI.run([
        "--emulator", server.hostAndPort, "--project", "refused", "listen", "users/u1", "--max-snapshots", "1",
      ])
      #expect(result.status == 1, "\(result)")
      #expect(result.json.map { $0["fromCache"] } == [.bool(true)], "\(result)")
      #expect(result.stderr.hasPrefix("error: PERMISSION_DENIED: "), "\(result)")
      #expect(result.stderr.contains("HTTP 403") && result.stderr.contains("the caller may not read this project"), "\(result)")
      #expect(result.stderr.filter { $0 == "\n" }.count == 1, "\(result)")
    }

    @Test("a listen to a server whose certificate is refused exits 1 at --timeout, naming the certificate")
    func untrustedCertificate() async throws {
      let certificates = try await TestCertificates.make()
      try await certificates.withServer(certificate: "self.pem", key: "self.key") { port in
        try await withGrowingMargin("the listen's first attempt failing before its timeout") { margin in
          let seconds = Double(margin.components.seconds) + Double(margin.components.attoseconds) / 1e18
          let result = try await CLI.run([
            "--host", "localhost:\(port)", "--token", "t", "--project", "untrusted", "listen", "users/u1", "--timeout", "\(seconds)",
          ])
          // A run that printed nothing and exits 0 ended before the first attempt failed
          // (the from-cache snapshot comes only after it): nothing seen, nothing to say.
          guard result.status != 0 || !result.stdout.isEmpty else {
            #expect(result.stderr.isEmpty, "\(result)")
            return .tooShort
          }
          #expect(result.status == 1, "\(result)")
          #expect(result.stderr.hasPrefix("error: UNAVAILABLE: "), "\(result)")
          #expect(result.stderr.contains("the certificate of localhost rejected"), "\(result)")
          #expect(result.stderr.filter { $0 == "\n" }.count == 1, "\(result)")
          #expect(result.json.allSatisfy { $0["fromCache"] == .bool(true) }, "\(result)")
          return .conclusive
        }
      }
    }
  }
}
