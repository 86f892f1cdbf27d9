import FirestoreTestSupport
import FirestoreWire
import Foundation
import Testing

extension CLITests {
  @Suite("firestore: export and import")
  struct CLIExportImportTests {
    static let seed = """
      {"path":"shop/s1","data":{"name":"first","kinds":{"b":{"$bytes":"AAE="},"d":1.0,"g":{"$geopoint":[1.0,2.0]},"n":{"$double":"NaN"},"r":{"$reference":"shop/s2"},"t":{"$timestamp":"2024-05-06T07:08:09.5Z"}}}}
      {"path":"shop/s2","data":{"name":"second","list":[1,"two",3.5,null]}}
      {"path":"shop/s1/items/i1","data":{"price":10}}
      {"path":"shop/s1/items/i1/notes/n1","data":{"text":"deep"}}
      {"path":"shop/gone/items/i9","data":{"price":9}}
      {"path":"other/o1","data":{"x":1}}

      """

    private static let times: Set<String> = ["createTime", "updateTime"]

    @Test("export → import into an empty database → export gives identical lines (json and rest)", arguments: Backend.cli)
    func roundTrip(_ backend: Backend) async throws {
      let source = backend.project("roundtripsource")
      let imported = try await backend.run(source, ["import"], stdin: Self.seed)
      #expect(imported.json == [.parse(#"{"written":6,"skipped":0}"#)], "\(imported)")

      let first = try await backend.run(source, ["export", "shop", "--recursive"])
      #expect(first.status == 0, "\(first)")
      #expect(first.stderr.isEmpty, "a non-terminal stderr gets no progress: \(first.stderr)")
      #expect(
        first.json.map { $0["path"]?.stringValue ?? "" } == [
          "shop/s1", "shop/s2", "shop/gone/items/i9", "shop/s1/items/i1", "shop/s1/items/i1/notes/n1",
        ])
      let flat = try await backend.run(source, ["export", "shop"])
      #expect(flat.json.count == 2)

      for format in ["json", "rest"] {
        let target = backend.project("roundtriptarget" + format)
        let exported = try await backend.run(source, ["export", "shop", "--recursive", "--format", format])
        let file = try temporaryFile(exported.stdout)
        defer { removeTemporaryFile(file) }
        let loaded = try await backend.run(target, ["import", "--input", file])
        #expect(loaded.json == [.parse(#"{"written":5,"skipped":0}"#)], "\(format): \(loaded)")
        let output = try temporaryFile("", name: "out.ndjson")
        defer { removeTemporaryFile(output) }
        let again = try await backend.run(target, ["export", "shop", "--recursive", "--format", format, "--output", output])
        #expect(again.status == 0 && again.stdout.isEmpty, "\(again)")
        let written = try String(contentsOfFile: output, encoding: .utf8)
        let before = exported.json.map { $0.removing(Self.times) }
        let after = written.split(separator: "\n").map { JSONValue.parse(String($0)).removing(Self.times) }
        #expect(before == after, "\(format) export differs after a round trip")
        #expect(before.count == 5)
        // Apart from the server's times, the text is byte-identical.
        let strip: (String) -> [String] = { text in
          text.split(separator: "\n").map { JSONWriter.string(JSONValue.parse(String($0)).removing(Self.times)) }
        }
        #expect(strip(exported.stdout) == strip(written))

        // Importing again is safe: the same documents, the same export.
        let rerun = try await backend.run(target, ["import"], stdin: exported.stdout)
        #expect(rerun.json == [.parse(#"{"written":5,"skipped":0}"#)])
        let third = try await backend.run(target, ["export", "shop", "--recursive", "--format", format])
        #expect(strip(third.stdout) == strip(exported.stdout))
      }
    }

    @Test("a bad line stops the import, named; the lines before it are written, none after", arguments: Backend.cli)
    func badLineStops(_ backend: Backend) async throws {
      let p = backend.project("badlinestops")
      let good = (0..<45).map { #"{"path":"part/d\#($0)","data":{"i":\#($0)}}"# }
      let input = (good + [#"{"path":"part","data":{}}"#, #"{"path":"part/after","data":{}}"#]).joined(separator: "\n")
      let result = try await backend.run(p, ["import"], stdin: input)
      #expect(result.status == 1)
      #expect(result.stderr.contains("line 46"), "\(result)")
      let exported = try await backend.run(p, ["export", "part"])
      #expect(exported.lines.count == 45, "\(exported)")
      #expect(!exported.stdout.contains("part/after"))
    }

    @Test("stdout is pure NDJSON: no progress, colour or carriage returns on pipes; get output feeds import", arguments: Backend.cli)
    func pureOutput(_ backend: Backend) async throws {
      let p = backend.project()
      let many = (0..<1_203).map { #"{"path":"bulk/d\#(String(format: "%04d", $0))","data":{"i":\#($0)}}"# }.joined(separator: "\n")
      let imported = try await backend.run(p, ["import"], stdin: many + "\n" + #"{"path":"bulk/missing","exists":false}"#)
      #expect(imported.json == [.parse(#"{"written":1203,"skipped":1}"#)], "\(imported)")
      #expect(imported.stderr.isEmpty, "\(imported.stderr)")
      let exported = try await backend.run(p, ["export", "bulk"])
      let query = try await backend.run(p, ["query", "bulk", "--order-by", "i:desc", "--limit", "3"])
      for result in [exported, query, imported] {
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        #expect(!result.stdout.contains("\u{1B}") && !result.stdout.contains("\r"))
        #expect(result.stdout.hasSuffix("\n"))
        for line in result.lines {
          guard case .object = JSONValue.parse(line) else {
            Issue.record("not a JSON object line: \(line)")
            continue
          }
        }
      }
      #expect(exported.lines.count == 1_203)
      // list pages through the collection (300 per page): every path once, in order.
      let listed = try await backend.run(p, ["list", "bulk"])
      #expect(listed.json.map { $0["path"]?.stringValue ?? "" } == (0..<1_203).map { "bulk/d" + String(format: "%04d", $0) })
      #expect(query.json.map { $0["data"]?["i"] } == [.integer(1202), .integer(1201), .integer(1200)])

      // What get prints (missing documents included) can be imported back.
      let got = try await backend.run(p, ["get", "bulk/d0001", "bulk/nope"])
      let other = backend.project("pureoutputcopy")
      let copied = try await backend.run(other, ["import"], stdin: got.stdout)
      #expect(copied.json == [.parse(#"{"written":1,"skipped":1}"#)], "\(copied)")
    }
  }
}
