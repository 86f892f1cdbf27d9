import FirestoreTestSupport
import FirestoreWire
import Foundation
import Testing

extension CLITests {
  @Suite("firestore: help and usage errors")
  struct CLIUsageTests {
    static let commands = [
      "get", "set", "create", "update", "delete", "add", "query", "count", "list", "collections", "listen", "export", "import",
    ]

    @Test("the executable was built next to the tests")
    func executableExists() {
      #expect(FileManager.default.isExecutableFile(atPath: CLI.executable.path), "no firestore at \(CLI.executable.path)")
    }

    @Test("--help lists every command and the exit statuses; every command has its own --help")
    func help() async throws {
      let overview = try await CLI.run(["--help"])
      #expect(overview.status == 0)
      #expect(overview.stderr.isEmpty)
      for command in Self.commands { #expect(overview.stdout.contains("\n  \(command) "), "\(command) missing from --help") }
      #expect(overview.stdout.contains("2 usage error"))
      for command in Self.commands {
        // Global option before the command, help after it: both places work.
        let result = try await CLI.run(["--format", "rest", command, "--help"])
        #expect(result.status == 0, "\(command): \(result)")
        #expect(result.stdout.hasPrefix("usage: firestore \(command)"), "\(command): \(result.stdout)")
        #expect(result.stdout.contains("global options:"))
      }
      let query = try await CLI.run(["query", "-h"])
      for option in [
        "--where", "--or", "--order-by", "--limit", "--limit-to-last", "--offset", "--start-at", "--start-after", "--end-at",
        "--end-before",
        "--select", "--ids", "--group",
      ] {
        #expect(query.stdout.contains(option), "query --help lacks \(option)")
      }
      let none = try await CLI.run([])
      #expect(none.status == 2)
      #expect(none.stdout.isEmpty && none.stderr.contains("commands:"))
      let helpCommand = try await CLI.run(["help", "listen"])
      #expect(helpCommand.status == 0 && helpCommand.stdout.hasPrefix("usage: firestore listen"), "\(helpCommand)")
    }

    @Test("usage errors exit 2 with one line naming the problem, and print nothing on stdout")
    func usageErrors() async throws {
      let cases: [([String], String)] = [
        (["frobnicate"], "unknown command 'frobnicate'"),
        (["get", "a/b", "--bogus"], "unknown option '--bogus' for 'get'"),
        (["--bogus", "get", "a/b"], "unknown option '--bogus'"),
        (["get"], "'get' takes at least 1 argument"),
        (["get", "articles"], "'articles' is a collection path"),
        (["get", "a//b"], #"bad path: path "a//b" has an empty segment"#),
        // Split on the "/" byte as the server does: three segments, although Swift glues
        // the combining mark onto the slash before it.
        (["get", "c/d/\u{301}e"], "'c/d/\u{301}e' is a collection path"),
        (["get", "c/__\u{301}x__"], "ID \"__\u{301}x__\" in path \"c/__\u{301}x__\" is reserved"),
        (["get", "c/.."], "ID \"..\" in path \"c/..\" is not allowed"),
        // The client's limits, checked by the client's own rules: a 1,501-byte ID, a name
        // over 6 KiB, more than 200 segments.
        (["get", "c/" + String(repeating: "i", count: 1501)], "is 1501 bytes; the maximum is 1500"),
        (
          ["get", Array(repeating: String(repeating: "n", count: 1000), count: 8).joined(separator: "/")],
          "bytes; Firestore's limit is 6144"
        ),
        (["get", Array(repeating: "s", count: 202).joined(separator: "/")], "has 202 segments; Firestore allows 200"),
        (["add", "a/b", "{}"], "'a/b' is a document path"),
        (["query", "articles", "--where", "a =~ 1"], "unknown operator '=~'"),
        (["query", "articles", "--where", "a =="], "needs three parts"),
        (["query", "articles", "--where", "a == open"], "value open is not JSON"),
        (["query", "articles", "--where", "a in 5"], "in needs a JSON array"),
        (["query", "articles", "--limit", "ten"], "--limit needs a non-negative integer, got 'ten'"),
        (["query", "articles", "--limit", "1", "--limit", "2"], "--limit given more than once"),
        (["query", "articles", "--order-by", "a:sideways"], "direction must be :asc or :desc"),
        (["query", "articles", "--limit-to-last", "2"], "--limit-to-last needs an --order-by"),
        (["query", "articles", "--start-at", "5"], "--start-at needs a non-empty JSON array"),
        (["query", "articles", "--select", "a", "--ids"], "--select and --ids cannot be combined"),
        (["set", "a/b", "{\"x\":"], "DATA '{\"x\":' is not valid JSON"),
        (["set", "a/b", "[1,2]"], "must be a JSON object"),
        (["set", "a/b", "{}", "--merge", "--merge-fields", "x"], "--merge and --merge-fields cannot be combined"),
        (["set", "a/b", #"{"t":{"$timestamp":"soon"}}"#], #"at "t": $timestamp needs an RFC 3339 time"#),
        (["update", "a/b", "{}"], "update needs at least one field"),
        (["listen", "a", "--max-snapshots", "0"], "--max-snapshots must be at least 1"),
        (["listen", "a", "--timeout", "-1"], "--timeout needs a positive number"),
        // Numbers a Duration or a 32-bit field cannot hold are refused, not trapped on.
        (["listen", "a", "--timeout", "1e19"], "--timeout needs a positive number of seconds up to 1e15, got '1e19'"),
        (["listen", "a", "--timeout", "nan"], "--timeout needs a positive number of seconds, got 'nan'"),
        (["listen", "a", "--timeout", "inf"], "--timeout needs a positive number of seconds, got 'inf'"),
        (["listen", "a", "--timeout", "-inf"], "--timeout needs a positive number of seconds, got '-inf'"),
        (["query", "articles", "--limit", "9223372036854775807"], "--limit must be at most 2147483647"),
        (["query", "articles", "--offset", "99999999999999999999"], "--offset needs a non-negative integer"),
        (["listen", "a", "--max-snapshots", "4294967296"], "--max-snapshots must be at most 2147483647"),
        (["export", "c", "--partitions", "3000000000"], "--partitions must be at most 2147483647"),
        (["listen", "a/b", "--limit", "1"], "query options need a collection PATH"),
        (["get", "a/b", "--format", "xml"], "--format must be json or rest, got 'xml'"),
        (["get", "a/b", "--format"], "--format needs a value"),
        (["get", "a/b", "--mock=yes"], "--mock takes no value"),
        (["get", "a/b", "--emulator", "nowhere"], "--emulator needs HOST:PORT"),
        (["get", "a/b", "--host", "firestore.example.com"], "--host cannot be combined with --emulator or --mock"),
        (["get", "a/b", "--host", "https://firestore.example.com/"], "--host needs HOST or HOST:PORT"),
        (["get", "a/b", "--insecure"], "--insecure goes with --host"),
        (["get", "a/b", "--ca-file", "/nonexistent/ca.pem"], "--ca-file '/nonexistent/ca.pem' cannot be read"),
        (["get", "a/b", "--proxy", "nowhere"], "--proxy needs a URL such as http://proxy:3128"),
        (["get", "a/b", "--token", " "], "--token must not be empty"),
        (["import", "--mock-data", "x"], "--mock-data needs --mock"),
        (["import", "extra"], "'import' takes 0 arguments"),
      ]
      for (arguments, expected) in cases {
        let full = arguments.contains("--emulator") || arguments.contains("--mock-data") ? arguments : ["--mock"] + arguments
        let result = try await CLI.run(full)
        #expect(result.status == 2, "\(arguments): \(result)")
        #expect(result.stdout.isEmpty, "\(arguments): \(result)")
        #expect(result.stderr.hasPrefix("error: "), "\(arguments): \(result)")
        #expect(result.stderr.contains(expected), "\(arguments): expected “\(expected)” in \(result.stderr)")
        #expect(result.stderr.filter { $0 == "\n" }.count == 1, "\(arguments): \(result.stderr)")
      }
      let group = try await CLI.run(["--mock", "query", "users/u1/favorites", "--group"])
      #expect(group.status == 2)
      #expect(group.stderr.contains("is not a collection ID"), "\(group)")
    }

    /// `CommandLine.arguments` would hand the program U+FFFD for each bad byte: a path in
    /// Latin-1 would name another document, and data would be written altered.
    @Test("an argument that is not UTF-8 is refused with exit 2, not repaired")
    func nonUTF8Arguments() async throws {
      let cases = [
        (#"exec "$0" --mock get "$(printf 'c/caf\351')""#, #"error: argument 3 is not valid UTF-8 text: 'c/caf\xE9'"#),
        (#"exec "$0" --mock set c/d "$(printf '{"a":"\377\303"}')""#, #"argument 4 is not valid UTF-8 text: '{"a":"\xFF\xC3"}'"#),
        (#"exec "$0" "$(printf '%s\200mock' --)" get c/d"#, #"argument 1 is not valid UTF-8 text: '--\x80mock'"#),
      ]
      for (script, expected) in cases {
        let result = try await RunningProcess.run(
          URL(fileURLWithPath: "/bin/sh"), ["-c", script, CLI.executable.path], environment: CLI.environment([:]))
        #expect(result.status == 2, "\(script): \(result)")
        #expect(result.stdout.isEmpty, "\(script): \(result)")
        #expect(result.stderr.contains(expected), "\(script): expected “\(expected)” in \(result.stderr)")
        #expect(!result.stderr.contains("\u{FFFD}"), "\(script): \(result)")
      }
    }

    @Test("Firestore and I/O errors exit 1 with error: CODE: message")
    func failures() async throws {
      let missing = try await CLI.run(["--mock", "update", "articles/none", #"{"a":1}"#])
      #expect(missing.status == 1)
      #expect(missing.stderr.hasPrefix("error: NOT_FOUND: "), "\(missing)")
      #expect(missing.stderr.filter { $0 == "\n" }.count == 1)
      let noFile = try await CLI.run(["--mock", "import", "--input", "/nonexistent/in.ndjson"])
      #expect(noFile.status == 1)
      #expect(noFile.stderr.hasPrefix("error: NOT_FOUND: cannot open '/nonexistent/in.ndjson'"), "\(noFile)")
      let noKey = try await CLI.run(["--credentials", "/nonexistent/key.json", "--project", "p", "get", "a/b"])
      #expect(noKey.status == 1)
      #expect(noKey.stderr.contains("/nonexistent/key.json"), "\(noKey)")
      let badKey = try temporaryFile(#"{"type":"service_account","client_email":"x@y"}"#, name: "key.json")
      defer { removeTemporaryFile(badKey) }
      let badKeyResult = try await CLI.run(["--mock", "--credentials", badKey, "get", "a/b"])
      #expect(badKeyResult.status == 1)
      #expect(badKeyResult.stderr.contains(badKey) && badKeyResult.stderr.contains("private_key"), "\(badKeyResult)")
      let badData = try temporaryFile("{\"path\":\"a/1\",\"data\":{}}\n{\"path\":\"a\",\"data\":{}}\n")
      defer { removeTemporaryFile(badData) }
      let badLine = try await CLI.run(["--mock", "import", "--input", badData])
      #expect(badLine.status == 1)
      #expect(badLine.stderr.contains("line 2 of \(badData)"), "\(badLine)")
      #expect(badLine.stderr.contains("collection path"), "\(badLine)")
      let unreachable = try await CLI.run(["--emulator", "127.0.0.1:1", "get", "a/b"])
      #expect(unreachable.status == 1)
      #expect(unreachable.stderr.hasPrefix("error: "), "\(unreachable)")
    }

    @Test("--mock and --mock-data: an in-process server preloaded with export lines; project from the environment")
    func mock() async throws {
      let file = try temporaryFile(
        """
        {"path":"articles/a1","exists":true,"createTime":"2024-01-01T00:00:00Z","updateTime":"2024-01-01T00:00:00Z","data":{"n":1}}
        {"path":"articles/a2","exists":false}
        {"path":"articles/a3","fields":{"n":{"integerValue":"3"}}}

        """)
      defer { removeTemporaryFile(file) }
      let result = try await CLI.run(
        ["query", "articles", "--mock", "--mock-data", file, "--ids"], environment: ["FIRESTORE_PROJECT": "demo-env"])
      #expect(result.status == 0, "\(result)")
      #expect(result.json == [.parse(#"{"path":"articles/a1"}"#), .parse(#"{"path":"articles/a3"}"#)])
      // A fresh --mock is empty again.
      let empty = try await CLI.run(["--mock", "get", "articles/a1"])
      #expect(empty.json == [.parse(#"{"path":"articles/a1","exists":false}"#)])
    }
  }
}
