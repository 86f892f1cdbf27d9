import FirestoreTestSupport
import FirestoreWire
import Foundation
import Testing

/// Runs the built `firestore-bench` as the peer harness does: its command line, its exit
/// statuses, and the JSON it writes. Timings are never asserted, only that they exist.
@Suite("firestore-bench command line")
struct BenchCommandLineTests {
  @Test("--help lists every scenario and exits 0")
  func help() async throws {
    let result = try await Bench.run(["--help"])
    #expect(result.status == 0, "\(result)")
    let scenarios = [
      "query-full", "query-ids", "collection-ids", "collection-full", "get-all", "get-sequential", "get-concurrent", "listen-latency",
      "set-small", "set-article", "batch-500", "decode", "reader", "stream100k", "paired",
    ]
    for scenario in scenarios {
      #expect(result.stdout.contains("\n  \(scenario) "), "--help does not list \(scenario)")
    }
    // The peer benchmark's numbers stay accepted, and help says what they stand for.
    #expect(result.stdout.contains("s1 = query-full"))
    #expect(result.stdout.contains("--emulator HOST:PORT"))
  }

  @Test(
    "a bad command line exits 2 and names the problem",
    arguments: [
      (["s9"], "unknown scenario \"s9\""),
      (["decode", "--reps", "0"], "--reps takes a positive whole number, not \"0\""),
      (["s1"], "needs a Firestore emulator"),
      (["paired", "--side", "python"], "--side takes one of client, transport, curl, handoff, floor, not \"python\""),
      (["paired", "--target", "s4,s9"], "--target takes paired targets separated by commas"),
      (["paired", "--spin-us", "-5"], "--spin-us takes a positive whole number, not \"-5\""),
      (["paired", "--sides", "client,transport"], "--sides takes sides separated by commas, client and curl among them"),
      (["paired", "--sides", "client,curl,curl"], "--sides takes sides separated by commas, client and curl among them"),
      (["paired", "--sides", "client,curl,python"], "not \"client,curl,python\""),
      (["paired", "--side", "client", "--sides", "client,curl"], "--sides and --side cannot be used together"),
      (["paired", "--touch-lines", "0"], "--touch-lines takes a positive whole number, not \"0\""),
      (["paired", "--touch-lines", "100", "--touch-pages", "x"], "--touch-pages takes a positive whole number, not \"x\""),
      (["paired", "--touch-pages", "8"], "--touch-pages needs --touch-lines"),
      (["client-cost", "--evict-mb", "0"], "--evict-mb takes a positive whole number, not \"0\""),
      (["client-cost", "--evict-mb", "4096"], "--evict-mb must be at most 1024, not \"4096\""),
      (["client-cost", "--target", "s1,s7b"], "client-cost measures s4, s5a, s7a, s7c; --target names none of them"),
    ])
  func usage(arguments: [String], message: String) async throws {
    let result = try await Bench.run(arguments)
    #expect(result.status == 2, "\(result)")
    #expect(result.stderr.contains(message), "\(result)")
  }

  @Test(
    "client-cost runs every call, or those --target names, and reports them",
    arguments: [
      (["--evict-mb", "1"], ["batch-500.client", "set-small.client", "get-all.client", "get-one.client"]),
      (["--target", "s7a,s4,s1"], ["set-small.client", "get-all.client"]),
    ])
  func clientCost(options: [String], scenarios: [String]) async throws {
    let directory = try makeTemporaryDirectory("bench-test")
    defer { try? FileManager.default.removeItem(at: directory) }
    let output = directory.appendingPathComponent("out.json")
    let result = try await Bench.run(["client-cost", "--reps", "2"] + options + ["--json", output.path])
    #expect(result.status == 0, "\(result)")
    guard case .array(let rows)? = try? JSONParser.parse(Data(contentsOf: output)) else {
      Issue.record("--json did not write a JSON array")
      return
    }
    #expect(rows.map { $0["scenario"]?.stringValue } == scenarios)
    for row in rows { #expect(row["n"] == .number("2"), "\(row)") }
  }

  @Test("decode --body decodes the file and --json writes one object per variant")
  func decode() async throws {
    let directory = try makeTemporaryDirectory("bench-test")
    defer { try? FileManager.default.removeItem(at: directory) }
    let body = directory.appendingPathComponent("body.json")
    try Data(Bench.runQueryBody(documents: 25).utf8).write(to: body)
    let output = directory.appendingPathComponent("out.json")

    let result = try await Bench.run(["decode", "--body", body.path, "--reps", "3", "--json", output.path])
    #expect(result.status == 0, "\(result)")
    #expect(result.stdout.contains("decode.json"))
    guard case .array(let rows)? = try? JSONParser.parse(Data(contentsOf: output)) else {
      Issue.record("--json did not write a JSON array")
      return
    }
    #expect(rows.map { $0["scenario"]?.stringValue } == ["decode", "decode.data", "decode.wire", "decode.json"])
    for row in rows {
      #expect(row["n"] == .number("3"))
      #expect(row["docs"] == .number("25"))
      guard case .number(let median)? = row["median_ms"], let value = Double(median) else {
        Issue.record("no median_ms in \(row)")
        continue
      }
      #expect(value > 0)
      #expect(row["p95_ms"] != nil && row["cpu_ms"] != nil)
    }
  }

  @Test("decode of a body that is not JSON fails with exit 1 and says so")
  func badBody() async throws {
    let body = FileManager.default.temporaryDirectory.appendingPathComponent("bench-test-\(UUID().uuidString).json")
    try Data("[{\"document\": ".utf8).write(to: body)
    defer { try? FileManager.default.removeItem(at: body) }
    let result = try await Bench.run(["decode", "--body", body.path, "--reps", "3"])
    #expect(result.status == 1)
    #expect(result.stderr.hasPrefix("firestore-bench: decode: \(body.path) is not a :runQuery response: "), "\(result)")
    let missing = try await Bench.run(["decode", "--body", "/nonexistent/body.json"])
    #expect(missing.status == 1)
    #expect(missing.stderr.contains("cannot read --body /nonexistent/body.json"), "\(missing)")
  }
}
