import FirestoreTestSupport
import FirestoreWire
import Foundation
import Testing

extension CLITests {
  @Suite("firestore: vector search, explain, recursive delete, partitioned export, bundles")
  struct CLIServerFeaturesTests {
    private func paths(_ result: ProcessResult) -> [String] { result.json.compactMap { $0["path"]?.stringValue } }

    private func seeded(_ backend: Backend, _ lines: [String], _ hint: String = #function) async throws -> String {
      let project = backend.project(hint)
      let result = try await backend.run(project, ["import"], stdin: lines.joined(separator: "\n"))
      #expect(result.json == [.parse(#"{"written":\#(lines.count),"skipped":0}"#)], "\(result)")
      return project
    }

    @Test("vectors in and out as {\"$vector\":[…]}; --find-nearest orders by distance", arguments: Backend.cli)
    func vectorSearch(_ backend: Backend) async throws {
      let p = try await seeded(
        backend,
        [
          #"{"path":"beans/a","data":{"emb":{"$vector":[1.0,1.0]},"roast":"light"}}"#,
          #"{"path":"beans/b","data":{"emb":{"$vector":[2,1]},"roast":"dark"}}"#,
          #"{"path":"beans/c","data":{"emb":{"$vector":[3.0,1.0]},"roast":"dark"}}"#,
        ])
      let got = try await backend.run(p, ["get", "beans/b"])
      #expect(got.json.first?["data"]?["emb"] == .parse(#"{"$vector":[2.0,1.0]}"#), "\(got)")
      let rest = try await backend.run(p, ["get", "beans/b", "--format", "rest"])
      #expect(rest.stdout.contains(#""__type__":{"stringValue":"__vector__"}"#), "\(rest)")

      let nearest = try await backend.run(
        p,
        [
          "query", "beans", "--find-nearest", "emb", "--vector", "[2.2, 1]", "--distance", "euclidean", "--limit", "2",
          "--distance-result-field", "d",
        ])
      #expect(nearest.status == 0, "\(nearest)")
      #expect(paths(nearest) == ["beans/b", "beans/c"])
      let distance = nearest.json.first?["data"]?["d"]
      #expect(distance.flatMap { if case .number(let n) = $0 { Double(n) } else { nil } }.map { abs($0 - 0.2) < 1e-12 } == true)
      let filtered = try await backend.run(
        p,
        [
          "query", "beans", "--where", #"roast == "dark""#, "--find-nearest", "emb", "--vector", "[1,1]", "--distance", "dot-product",
          "--limit", "5", "--ids",
        ])
      #expect(paths(filtered) == ["beans/c", "beans/b"], "\(filtered)")

      let usage: [[String]] = [
        ["--find-nearest", "emb", "--vector", "[1,1]", "--distance", "manhattan", "--limit", "1"],
        ["--find-nearest", "emb", "--vector", #"["a"]"#, "--distance", "cosine", "--limit", "1"],
        ["--find-nearest", "emb", "--vector", "[1,1]", "--distance", "cosine"],
        ["--find-nearest", "emb", "--distance", "cosine", "--limit", "1"],
        ["--vector", "[1,1]"],
      ]
      for arguments in usage {
        let result = try await backend.run(p, ["query", "beans"] + arguments)
        #expect(result.status == 2 && result.stdout.isEmpty, "\(arguments): \(result)")
      }
      let tooMany = try await backend.run(
        p, ["query", "beans", "--find-nearest", "emb", "--vector", "[1,1]", "--distance", "cosine", "--limit", "1001"])
      #expect(tooMany.status == 1 && tooMany.stderr.contains("INVALID_ARGUMENT"), "\(tooMany)")
    }

    @Test("--explain prints the plan, --analyze the documents and statistics too; the emulator does not explain", arguments: Backend.cli)
    func explain(_ backend: Backend) async throws {
      let p = try await seeded(
        backend, (0..<4).map { #"{"path":"items/i\#($0)","data":{"n":\#($0),"kind":"\#($0 % 2 == 0 ? "even" : "odd")"}}"# })
      let planned = try await backend.run(p, ["query", "items", "--where", #"kind == "even""#, "--explain"])
      let analyzed = try await backend.run(p, ["query", "items", "--where", #"kind == "even""#, "--explain", "--analyze"])
      switch backend {
      case .emulator, .http2:
        for result in [planned, analyzed] {
          #expect(result.status == 1 && result.stderr.contains("UNIMPLEMENTED") && result.stdout.isEmpty, "\(result)")
        }
      case .mock:
        #expect(planned.status == 0 && planned.json.count == 1, "\(planned)")
        let plan = planned.json.first?["explain"]
        #expect(plan?["indexesUsed"] == .parse(#"[{"properties":"(kind ASC, __name__ ASC)","query_scope":"Collection"}]"#))
        #expect(plan?["executionStats"] == nil)
        #expect(paths(analyzed) == ["items/i0", "items/i2"], "\(analyzed)")
        let stats = analyzed.json.last?["explain"]?["executionStats"]
        #expect(stats?["resultsReturned"] == .number("2") && stats?["readOperations"] == .number("2"), "\(analyzed)")
        #expect(stats?["executionDuration"]?.stringValue?.hasSuffix("s") == true)
      }
      let usage = try await backend.run(p, ["query", "items", "--analyze"])
      #expect(usage.status == 2, "\(usage)")
    }

    @Test("delete --recursive removes a collection or a document with everything below; neighbours stay", arguments: Backend.cli)
    func recursiveDelete(_ backend: Backend) async throws {
      let p = try await seeded(
        backend,
        [
          #"{"path":"t/a","data":{}}"#, #"{"path":"t/a/s/1","data":{}}"#, #"{"path":"t/a/s/1/u/2","data":{}}"#,
          #"{"path":"t/ghost/s/3","data":{}}"#, #"{"path":"t/b","data":{}}"#, #"{"path":"t0/k","data":{}}"#, #"{"path":"tt/k","data":{}}"#,
        ])
      let document = try await backend.run(p, ["delete", "t/a", "--recursive"])
      #expect(document.json == [.parse(#"{"path":"t/a","deleted":3}"#)], "\(document)")
      let collection = try await backend.run(p, ["delete", "t", "--recursive"])
      #expect(collection.json == [.parse(#"{"path":"t","deleted":2}"#)], "\(collection)")
      #expect(try await backend.run(p, ["export", "t", "--recursive"]).stdout.isEmpty)
      #expect(paths(try await backend.run(p, ["export", "t0"])) == ["t0/k"])
      #expect(paths(try await backend.run(p, ["export", "tt"])) == ["tt/k"])
      let usage = try await backend.run(p, ["delete", "t0", "--recursive", "--must-exist"])
      #expect(usage.status == 2, "\(usage)")
      let plain = try await backend.run(p, ["delete", "t0"])
      #expect(plain.status == 2, "without --recursive a collection path is refused: \(plain)")
    }

    @Test("export --partitions writes exactly what a plain export writes, in the same order", arguments: Backend.cli)
    func partitionedExport(_ backend: Backend) async throws {
      var lines = (0..<300).map { #"{"path":"events/e\#(String(format: "%03d", $0))","data":{"i":\#($0)}}"# }
      // The same collection ID deeper down and elsewhere: in the group, not in the export's ranges.
      lines += [
        #"{"path":"events/e005/events/x","data":{}}"#, #"{"path":"a/b/events/y","data":{}}"#, #"{"path":"events/e100/more/z","data":{}}"#,
      ]
      let p = try await seeded(backend, lines)
      let plain = try await backend.run(p, ["export", "events"])
      #expect(plain.lines.count == 300)
      let single = try await backend.run(p, ["export", "events", "--partitions", "1"])
      #expect(single.stdout == plain.stdout)
      let partitioned = try await backend.run(p, ["export", "events", "--partitions", "7"])
      let recursive = try await backend.run(p, ["export", "events", "--recursive", "--partitions", "4"])
      let zero = try await backend.run(p, ["export", "events", "--partitions", "0"])
      #expect(zero.status == 2, "\(zero)")
      switch backend {
      case .emulator, .http2:
        #expect(partitioned.status == 1 && partitioned.stderr.contains("UNIMPLEMENTED"), "\(partitioned)")
        #expect(partitioned.stderr.contains("without --partitions"))
      case .mock:
        #expect(partitioned.status == 0, "\(partitioned)")
        #expect(partitioned.stdout == plain.stdout)
        let plainRecursive = try await backend.run(p, ["export", "events", "--recursive"])
        #expect(recursive.stdout == plainRecursive.stdout && plainRecursive.lines.count == 302)
        let file = try temporaryFile("", name: "events.ndjson")
        defer { removeTemporaryFile(file) }
        let toFile = try await backend.run(p, ["export", "events", "--partitions", "5", "--output", file])
        let written = try String(contentsOfFile: file, encoding: .utf8)
        #expect(toFile.status == 0 && written == plain.stdout)
      }
    }

    @Test("bundle builds a loadable bundle from a query and documents; import --bundle writes its documents", arguments: Backend.cli)
    func bundles(_ backend: Backend) async throws {
      let p = try await seeded(
        backend,
        [
          #"{"path":"stories/s1","data":{"rank":3,"emb":{"$vector":[0.5]}}}"#, #"{"path":"stories/s2","data":{"rank":1}}"#,
          #"{"path":"stories/s3","data":{"rank":2}}"#, #"{"path":"config/app","data":{"v":7}}"#,
        ])
      let file = try temporaryFile("", name: "stories.bundle")
      defer { removeTemporaryFile(file) }
      let built = try await backend.run(
        p,
        [
          "bundle", "latest", "stories", "--order-by", "rank", "--limit", "2", "--query-name", "top", "--document", "config/app",
          "--document", "config/missing", "--output", file,
        ])
      #expect(
        built.json == [
          .parse(#"{"bundle":"latest","queries":1,"documents":4,"bytes":\#(try Data(contentsOf: URL(fileURLWithPath: file)).count)}"#)
        ], "\(built)")
      let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
      var reader = BundleReader(bytes)
      var names: [String] = []
      while let (element, _) = try reader.next() {
        switch element {
        case .namedQuery(let query):
          #expect(query.name == "top" && query.structuredQuery.limit == 2)
        case .document(let document): names.append(String(document.name.split(separator: "/").suffix(2).joined(separator: "/")))
        default: break
        }
      }
      #expect(names == ["stories/s2", "stories/s3", "config/app"])

      let target = backend.project("bundletarget")
      let imported = try await backend.run(target, ["import", "--bundle", file])
      #expect(imported.json == [.parse(#"{"written":3,"skipped":1}"#)], "\(imported)")
      #expect(paths(try await backend.run(target, ["export", "stories"])) == ["stories/s2", "stories/s3"])
      #expect(try await backend.run(target, ["get", "config/app"]).json.first?["data"] == .parse(#"{"v":7}"#))

      let toStdout = try await backend.run(p, ["bundle", "only-docs", "--document", "stories/s1"])
      var stdoutReader = BundleReader(Array(toStdout.stdout.utf8))
      let first = try stdoutReader.next()?.element
      guard case .metadata(let metadata)? = first else {
        Issue.record("a bundle on standard output starts with its metadata: \(toStdout)")
        return
      }
      #expect(metadata.id == "only-docs" && metadata.totalDocuments == 1)

      let usage: [[String]] = [
        ["bundle", "empty"], ["bundle", "x", "--where", "rank > 1"], ["import", "--bundle", file, "--input", file],
      ]
      for arguments in usage {
        let result = try await backend.run(p, arguments)
        #expect(result.status == 2, "\(arguments): \(result)")
      }
      let projected = try await backend.run(p, ["bundle", "x", "stories", "--ids"])
      #expect(projected.status == 1 && projected.stderr.contains("select"), "\(projected)")
      let notABundle = try temporaryFile("{\"path\":\"a/b\"}\n", name: "lines.ndjson")
      defer { removeTemporaryFile(notABundle) }
      let bad = try await backend.run(target, ["import", "--bundle", notABundle])
      #expect(bad.status == 1 && bad.stderr.contains("not a well-formed Firestore bundle"), "\(bad)")
    }
  }
}
