import FirestoreMock
import FirestoreTestSupport
import FirestoreWire
import Foundation
import Testing

extension CLITests {
  @Suite("firestore: query, count, list, collections")
  struct CLIQueryTests {
    static let seed = """
      {"path":"cities/c1","data":{"name":"A","pop":10,"state":"CA","tags":["x"]}}
      {"path":"cities/c2","data":{"name":"B","pop":20,"state":"NY","tags":["y"]}}
      {"path":"cities/c3","data":{"name":"C","pop":30,"state":"CA","tags":["x","y"]}}
      {"path":"cities/c4","data":{"name":"D","pop":40,"state":"TX","tags":[]}}
      {"path":"users/u1/favorites/f1","data":{"n":1}}
      {"path":"users/u2/favorites/f2","data":{"n":2}}

      """

    private func seeded(_ backend: Backend, _ hint: String = #function) async throws -> String {
      let project = backend.project(hint)
      let result = try await backend.run(project, ["import"], stdin: Self.seed)
      #expect(result.json == [.parse(#"{"written":6,"skipped":0}"#)], "\(result)")
      return project
    }

    private func paths(_ result: ProcessResult) -> [String] { result.json.compactMap { $0["path"]?.stringValue } }

    @Test("filters, OR groups, ordering, limits, offsets, cursors, projections, collection groups", arguments: Backend.cli)
    func queries(_ backend: Backend) async throws {
      let p = try await seeded(backend)
      let cases: [([String], [String])] = [
        (["--where", #"state == "CA""#, "--order-by", "pop"], ["c1", "c3"]),
        (["--where", "pop >= 20", "--where", "pop < 40"], ["c2", "c3"]),
        (["--where", "pop <= 20", "--where", "pop > 10"], ["c2"]),
        (["--where", #"state != "CA""#], ["c2", "c4"]),
        (["--where", #"tags array-contains "x""#], ["c1", "c3"]),
        (["--where", #"tags array-contains-any ["y"]"#], ["c2", "c3"]),
        (["--where", #"state in ["NY", "TX"]"#], ["c2", "c4"]),
        (["--where", #"state not-in ["CA"]"#], ["c2", "c4"]),
        (["--where", "pop > 10", "--or", #"state == "CA""#, "--or", #"state == "TX""#], ["c3", "c4"]),
        (["--order-by", "pop:desc", "--limit", "2"], ["c4", "c3"]),
        (["--order-by", "pop", "--limit-to-last", "2"], ["c3", "c4"]),
        (["--order-by", "pop", "--offset", "1", "--limit", "2"], ["c2", "c3"]),
        (["--order-by", "pop", "--start-at", "[20]", "--end-before", "[40]"], ["c2", "c3"]),
        (["--order-by", "pop", "--start-after", "[20]", "--end-at", "[40]"], ["c3", "c4"]),
        (["--order-by", "state", "--order-by", "pop:desc", "--limit", "2"], ["c3", "c1"]),
        (["--order-by", "__name__", "--start-after", #"[{"$reference":"cities/c2"}]"#], ["c3", "c4"]),
        (["--order-by", "__name__", "--end-before", #"["c2"]"#], ["c1"]),
        (["--where", #"__name__ in [{"$reference":"cities/c1"},{"$reference":"cities/c4"}]"#], ["c1", "c4"]),
      ]
      for (options, expected) in cases {
        let result = try await backend.run(p, ["query", "cities"] + options)
        #expect(result.status == 0, "\(options): \(result)")
        #expect(paths(result) == expected.map { "cities/" + $0 }, "\(options)")
        #expect(result.json.allSatisfy { $0["exists"] == .bool(true) && $0["data"] != nil }, "\(options)")
      }
      let selected = try await backend.run(p, ["query", "cities", "--select", "name,pop", "--where", "pop == 10"])
      #expect(selected.json.map { $0["data"] } == [.parse(#"{"name":"A","pop":10}"#)], "\(selected)")
      let ids = try await backend.run(p, ["query", "cities", "--ids", "--limit", "2"])
      #expect(ids.json == [.parse(#"{"path":"cities/c1"}"#), .parse(#"{"path":"cities/c2"}"#)], "\(ids)")
      let group = try await backend.run(p, ["query", "favorites", "--group", "--order-by", "n:desc"])
      #expect(paths(group) == ["users/u2/favorites/f2", "users/u1/favorites/f1"], "\(group)")
      let rest = try await backend.run(p, ["query", "cities", "--where", "pop == 40", "--format", "rest"])
      #expect(rest.json.first?["fields"]?["pop"] == .parse(#"{"integerValue":"40"}"#), "\(rest)")
      let restInput = try await backend.run(p, ["--input-format", "rest", "query", "cities", "--where", #"pop == {"integerValue":"20"}"#])
      #expect(paths(restInput) == ["cities/c2"], "\(restInput)")
    }

    @Test("query results stream out as they arrive: replies cut mid-way read on from the last document, each printed once")
    func streaming() async throws {
      let backend = Backend.mock
      let p = backend.project()
      let docs = (0..<60).map { #"{"path":"log/e\#(String(format: "%03d", $0))","data":{"pad":"\#(String(repeating: "x", count: 300))"}}"# }
      #expect(try await backend.run(p, ["import"], stdin: docs.joined(separator: "\n")).status == 0)
      Backend.mockServer.faults.add(
        FaultRule(route: "projects/\(p)/databases/(default)/documents:runQuery", fault: .truncateStream(afterBytes: 6_000), remaining: 3))
      let before = Backend.mockServer.requestLog.count(matching: "projects/\(p)/databases/(default)/documents:runQuery")
      let result = try await backend.run(p, ["query", "log"])
      #expect(result.status == 0, "\(result)")
      let printed = result.json.compactMap { $0["path"]?.stringValue }
      #expect(printed == (0..<60).map { "log/e" + String(format: "%03d", $0) })
      let replies = Backend.mockServer.requestLog.count(matching: "projects/\(p)/databases/(default)/documents:runQuery") - before
      #expect(replies == 4, "three replies cut after about 6 KB, then the rest: \(replies) replies")
    }

    @Test("a query whose reply sends one document, then an element that never ends, stops at the size limit with exit 1")
    func endlessElement() async throws {
      let document = #"{"document":{"name":"projects/p/databases/(default)/documents/c/a","fields":{}}}"#
      let endless = #"{"document":{"name":"projects/p/databases/(default)/documents/c/b","fields":{"s":{"stringValue":""#
      let server = try RawHTTPServer { connection, _ in
        guard connection.readRequest() != nil else { return }
        connection.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n[" + document + "," + endless)
        // Past the 256 MB limit, then the reply would end cut short: the limit must stop it first.
        let piece = [UInt8](repeating: UInt8(ascii: "a"), count: 1 << 20)
        for _ in 0..<320 where connection.write(bytes: piece) {}
      }
      defer { server.stop() }
      // The server ends the reply after 320 MB, so no deadline is needed; one that a busy
      // machine's slow reading could reach first would test the clock instead of the limit.
      let result = try await CLI.run(["--emulator", "127.0.0.1:\(server.port)", "--project", "p", "--call-timeout", "86400", "query", "c"])
      #expect(result.status == 1, "\(result.status) \(result.stderr)")
      #expect(result.json.compactMap { $0["path"]?.stringValue } == ["c/a"], "the first document was printed")
      #expect(result.stderr.hasPrefix("error: RESOURCE_EXHAUSTED: "), "\(result.stderr)")
      #expect(result.stderr.contains("exceeds 268435456 bytes"), "\(result.stderr)")
      #expect(result.stderr.filter { $0 == "\n" }.count == 1, "\(result.stderr)")
      #expect(server.accepted == 1, "a reply past the limit is not asked for again")
    }

    @Test("count with sums and averages", arguments: Backend.cli)
    func count(_ backend: Backend) async throws {
      let p = try await seeded(backend)
      let all = try await backend.run(p, ["count", "cities", "--sum", "pop", "--avg", "pop"])
      #expect(all.json == [.parse(#"{"count":4,"sum(pop)":100,"avg(pop)":25.0}"#)], "\(all)")
      let some = try await backend.run(p, ["count", "cities", "--where", #"state == "CA""#, "--avg", "pop", "--sum", "pop"])
      #expect(some.json == [.parse(#"{"count":2,"sum(pop)":40,"avg(pop)":20.0}"#)], "\(some)")
      let none = try await backend.run(p, ["count", "cities", "--where", "pop > 100", "--avg", "pop"])
      #expect(none.json == [.parse(#"{"count":0,"avg(pop)":null}"#)], "\(none)")
      let group = try await backend.run(p, ["count", "favorites", "--group", "--format", "rest", "--sum", "n"])
      #expect(group.json == [.parse(#"{"count":{"integerValue":"2"},"sum(n)":{"integerValue":"3"}}"#)], "\(group)")
    }

    @Test("pipeline: REST JSON in, results as query prints them; explain; bad input is a usage error", arguments: Backend.cli)
    func pipeline(_ backend: Backend) async throws {
      let p = try await seeded(backend)
      let stages =
        #"[{"name":"collection","args":[{"referenceValue":"/cities"}]},{"name":"where","args":[{"functionValue":{"name":"greater_than","args":[{"fieldReferenceValue":"pop"},{"integerValue":"15"}]}}]},{"name":"sort","args":[{"mapValue":{"fields":{"direction":{"stringValue":"descending"},"expression":{"fieldReferenceValue":"pop"}}}}]}]"#
      let documents = try await backend.run(p, ["pipeline", stages])
      if backend.reachesEmulator {
        // The emulator does not run pipelines (HTTP 500 UNKNOWN, verified with curl).
        #expect(documents.status == 1 && documents.stderr.hasPrefix("error: UNKNOWN"), "\(documents)")
        return
      }
      #expect(documents.status == 0, "\(documents)")
      #expect(paths(documents) == ["cities/c4", "cities/c3", "cities/c2"])
      let body =
        #"{"structuredPipeline":{"pipeline":{"stages":[{"name":"collection","args":[{"referenceValue":"/cities"}]},{"name":"aggregate","args":[{"mapValue":{"fields":{"total":{"functionValue":{"name":"sum","args":[{"fieldReferenceValue":"pop"}]}}}}},{"mapValue":{}}]}]}}}"#
      let total = try await backend.run(p, ["pipeline", "-"], stdin: body)
      #expect(total.json == [.parse(#"{"data":{"total":100}}"#)], "\(total)")
      let explained = try await backend.run(p, ["pipeline", stages, "--explain", "--analyze"])
      #expect(paths(explained).count == 3 && explained.json.last?["explain"]?.stringValue?.contains("results returned: 3") == true)
      let planned = try await backend.run(p, ["pipeline", stages, "--explain"])
      #expect(planned.json.count == 1 && planned.json[0]["explain"] != nil, "\(planned)")
      for bad in ["{", #"{"stages":[{"args":[]}]}"#, "@/nonexistent/pipeline.json"] {
        let result = try await backend.run(p, ["pipeline", bad])
        #expect(result.status == 2, "\(bad): \(result)")
      }
      let unsupported = try await backend.run(p, ["pipeline", #"[{"name":"database"},{"name":"unnest","args":[]}]"#])
      #expect(unsupported.status == 1 && unsupported.stderr.hasPrefix("error: UNIMPLEMENTED"), "\(unsupported)")
    }

    @Test("list (with missing documents) and collections", arguments: Backend.cli)
    func listing(_ backend: Backend) async throws {
      let p = try await seeded(backend)
      #expect(paths(try await backend.run(p, ["list", "cities"])) == ["cities/c1", "cities/c2", "cities/c3", "cities/c4"])
      #expect(paths(try await backend.run(p, ["list", "users"])) == [])
      #expect(paths(try await backend.run(p, ["list", "users", "--show-missing"])) == ["users/u1", "users/u2"])
      let top = try await backend.run(p, ["collections"])
      #expect(top.json == [.parse(#"{"id":"cities","path":"cities"}"#), .parse(#"{"id":"users","path":"users"}"#)], "\(top)")
      let sub = try await backend.run(p, ["collections", "users/u1"])
      #expect(sub.json == [.parse(#"{"id":"favorites","path":"users/u1/favorites"}"#)], "\(sub)")
    }
  }
}
