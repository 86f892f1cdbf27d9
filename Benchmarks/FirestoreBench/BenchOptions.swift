import BenchmarkSupport
import CommandLineSupport
import Foundation

/// The benchmark's command line: which scenarios, against which emulator, how many runs,
/// and where the results go.
struct BenchOptions {
  /// The scenarios to run, in order (already expanded from groups).
  var scenarios: [String] = []
  /// `HOST:PORT` of a Firestore emulator seeded by `Benchmarks/peer/seed.py`; from
  /// `--emulator`, else `FIRESTORE_EMULATOR_HOST`.
  var emulator: String?
  /// Timed runs per scenario, replacing each scenario's own count.
  var reps: Int?
  /// Multiplies each scenario's own run count, as bench-peer's `SCALE` does (default 2,
  /// the scale the anchors were measured at).
  var scale = 2.0
  /// A recorded `:runQuery` response for `decode`; `nil` records one from the emulator.
  var body: String?
  /// Where to write the JSON results.
  var json: String?
  /// The `firestore-mock-server` executable for `stream100k`; `nil` looks beside this one.
  var mockServer: String?
  /// `bulk`: how many articles.
  var bulkCount = 10_000
  /// `bulk`: `unlimited` (no client rate limit) or `default` (the 500/50/5 ramp-up).
  var bulkMode = "unlimited"
  /// `bulk`: requests in flight, or `nil` for the writer's default.
  var bulkConcurrency: Int?
  /// `listen-hold`: how long to hold the listener, in seconds.
  var holdSeconds = 20
  /// `get-concurrent.h2`: `HOST:PORT` of a TLS + HTTP/2 front of the seeded emulator.
  var front: String?
  /// `get-concurrent.h2`: the PEM file of the front certificate's CA.
  var caFile: String?
  /// `paired`: the one side to run alone (``PairedScenario/sideNames``), or `nil` for
  /// sides in turn.
  var pairedSide: String?
  /// `paired`: the sides that take turns (the client's and curl's way among them), or
  /// `nil` for all five.
  var pairedSides: [String]?
  /// `paired` and `client-cost`: the targets to run (`s4`, `s7a`...), or `nil` for every one.
  var pairedTargets: [String]?
  /// `paired`: CPU the transport side spends before each request, in its timing.
  var pairedSpin: Duration = .zero
  /// `paired`: cache lines the transport side reads one after another before each request
  /// (``ColdLines``); 0: none.
  var pairedTouchLines = 0
  /// `paired`: how many pages those lines are spread over.
  var pairedTouchPages = 0
  /// `client-cost`: MiB written before each timed call, so that it runs with cold caches
  /// (0: none).
  var evictMegabytes = 0

  /// The runs a scenario makes: `reps` when given, else its count at bench-peer's
  /// `SCALE=1` times ``scale`` (at least 3, as `bench_python.reps` rounds).
  func runs(_ countAtScaleOne: Int) -> Int {
    reps ?? max(3, Int((Double(countAtScaleOne) * scale).rounded(.toNearestOrEven)))
  }

  /// The emulator, or a failure that says how to name one.
  func emulatorHost() throws -> String {
    guard let emulator else {
      throw ToolFailure.usage("this scenario needs a Firestore emulator: pass --emulator HOST:PORT or set FIRESTORE_EMULATOR_HOST")
    }
    return emulator
  }

  static let usage = """
    usage: firestore-bench [SCENARIO...] [--emulator HOST:PORT] [--reps N] [--scale X]
                           [--body FILE] [--json FILE] [--mock-server PATH]
                           [--bulk-n N] [--bulk-mode unlimited|default] [--bulk-concurrency N]
                           [--seconds N]

    Runs performance scenarios and prints a table: per scenario the number of timed runs,
    the median and p95 wall time in milliseconds, process CPU per run, and figures of its
    own (bytes, round trips, memory). Warm-up runs are never counted. With no SCENARIO it
    runs the default suite: every peer scenario, decode, reader and stream100k.

    Scenarios on the bench-peer dataset (project "bench" on the emulator, seeded by
    Benchmarks/peer/seed.py; the operations of bench_python.py and bench_curl.sh):
    \(ScenarioCatalog.help)
    Options:
      --emulator HOST:PORT  the seeded emulator (default: $FIRESTORE_EMULATOR_HOST)
      --reps N              timed runs of every scenario, instead of its own count
      --scale X             multiply every scenario's own count (default 2, as SCALE=2 in
                            bench-peer: query-full 60, query-ids 100, collection-ids 60,
                            get-all 200, get-* 100, listen-latency 100, set-small and
                            set-article 400, batch-500 30, decode 20 runs)
      --body FILE           decode: this recorded :runQuery response body instead of one
                            recorded from the emulator at run time
      --json FILE           also write the results as a JSON array of objects
                            {"scenario", "label", "median_ms", "p95_ms", "n", ...figures}
      --mock-server PATH    stream100k: the firestore-mock-server executable (default:
                            the one beside this executable)
      --bulk-n N            bulk: articles to write (default 10000)
      --bulk-mode MODE      bulk: unlimited (default; no rate limit) or default (ramp-up)
      --bulk-concurrency N  bulk: requests in flight (default: the writer's, 10)
      --seconds N           listen-hold: seconds to hold the listener (default 20)
      --front HOST:PORT     get-concurrent.h2: a TLS + HTTP/2 front (nghttpx) of the seeded emulator
      --ca-file PEM         get-concurrent.h2: the CA that issued the front's certificate
      --side SIDE           paired: run one side alone (client, transport, curl,
                            handoff or floor), its calls back to back, with its CPU per call
      --sides client,curl[,S...]
                            paired: only these sides take turns, so that fewer others
                            run between two calls of the client (not with --side)
      --target T[,T...]     paired: only these targets (s1, s4, s5a, s7a, s7b, s7c);
                            client-cost: only these (s4, s5a, s7a, s7c)
      --spin-us N           paired: the transport side keeps the CPU busy N microseconds
                            before each request, inside its timing: what that much of a
                            client's own work between calls costs in wall time
      --touch-lines N       paired: the transport side reads N cache lines, one after
                            another, before each request, inside its timing: what
                            that many lines of a client's code or data cost when the
                            caches went cold between two calls
      --touch-pages P       paired: the pages those lines are spread over (default N / 8)
      --evict-mb N          client-cost: write N MiB (at most 1024) before each timed
                            call, outside its timing, so that the call runs with cold
                            caches, as it does between a server's answers on the same cores
      -h, --help            show this help

    Exit status: 0 when every scenario ran, 1 when one failed, 2 for a bad command line.

    """

  /// The most `--evict-mb` takes, in MiB.
  static let largestEviction = 1024

  /// The options `firestore-bench` accepts, each with a value (``usage`` explains them).
  static let specs = [
    "--emulator", "--reps", "--scale", "--body", "--json", "--mock-server", "--bulk-n", "--bulk-mode", "--bulk-concurrency",
    "--seconds", "--front", "--ca-file", "--side", "--sides", "--target", "--spin-us", "--touch-lines", "--touch-pages",
    "--evict-mb",
  ].map { OptionSpec($0, "VALUE") }

  /// Parses the arguments after the program name; `nil` means `--help`.
  ///
  /// - Throws: ``ToolFailure`` (usage) naming the bad argument.
  static func parse(_ arguments: [String], environment: [String: String]) throws -> BenchOptions? {
    do throws(UsageError) {
      return try parse(ArgumentParser(globalOptions: specs).parse(arguments), environment: environment)
    } catch {
      throw ToolFailure.usage(error.message)
    }
  }

  private static func parse(_ parsed: ParsedArguments, environment: [String: String]) throws(UsageError) -> BenchOptions? {
    if parsed.wantsHelp { return nil }
    var options = BenchOptions()
    if let host = parsed.value("--emulator") {
      guard host.contains(":"), !host.contains("/") else {
        throw UsageError("--emulator takes HOST:PORT (such as 127.0.0.1:8080), not \"\(host)\"")
      }
      options.emulator = host
    }
    options.reps = try parsed.positiveInteger("--reps")
    if let scale = try parsed.positiveNumber("--scale") { options.scale = scale }
    options.body = parsed.value("--body")
    options.json = parsed.value("--json")
    options.mockServer = parsed.value("--mock-server")
    options.bulkCount = try parsed.positiveInteger("--bulk-n") ?? options.bulkCount
    if let mode = parsed.value("--bulk-mode") {
      guard mode == "unlimited" || mode == "default" else {
        throw UsageError("--bulk-mode takes unlimited or default, not \"\(mode)\"")
      }
      options.bulkMode = mode
    }
    options.bulkConcurrency = try parsed.positiveInteger("--bulk-concurrency")
    options.holdSeconds = try parsed.positiveInteger("--seconds") ?? options.holdSeconds
    options.front = parsed.value("--front")
    options.caFile = parsed.value("--ca-file")
    if let side = parsed.value("--side") {
      guard PairedScenario.sideNames.contains(side) else {
        throw UsageError("--side takes one of \(PairedScenario.sideNames.joined(separator: ", ")), not \"\(side)\"")
      }
      options.pairedSide = side
    }
    if let list = parsed.value("--sides") {
      // One side alone and a rotation of several are two ways of running; both is neither.
      guard options.pairedSide == nil else { throw UsageError("--sides and --side cannot be used together") }
      let names = list.split(separator: ",").map(String.init)
      let known = PairedScenario.sideNames
      if !names.contains("client") || !names.contains("curl") || names.contains(where: { !known.contains($0) })
        || Set(names).count != names.count
      {
        let choices = known.joined(separator: ", ")
        throw UsageError("--sides takes sides separated by commas, client and curl among them (\(choices)), not \"\(list)\"")
      }
      options.pairedSides = names
    }
    if let list = parsed.value("--target") {
      let names = list.split(separator: ",").map(String.init)
      let known = PairedScenario.targets.map(\.name)
      if names.isEmpty || names.contains(where: { !known.contains($0) }) {
        throw UsageError("--target takes paired targets separated by commas (\(known.joined(separator: ", "))), not \"\(list)\"")
      }
      options.pairedTargets = names
    }
    if let spin = try parsed.positiveInteger("--spin-us") { options.pairedSpin = .microseconds(spin) }
    let touchPages = try parsed.positiveInteger("--touch-pages")
    if let lines = try parsed.positiveInteger("--touch-lines") {
      options.pairedTouchLines = lines
      options.pairedTouchPages = touchPages ?? max(1, lines / 8)
    } else if touchPages != nil {
      throw UsageError("--touch-pages needs --touch-lines")
    }
    if let megabytes = try parsed.positiveInteger("--evict-mb") {
      // More than any cache, and an allocation the machine can make.
      guard megabytes <= Self.largestEviction else {
        throw UsageError("--evict-mb must be at most \(Self.largestEviction), not \"\(megabytes)\"")
      }
      options.evictMegabytes = megabytes
    }
    do {
      options.scenarios = try ScenarioCatalog.expand(parsed.positionals)
    } catch let failure as ToolFailure {
      throw UsageError(failure.description)
    } catch {
      throw UsageError("\(error)")
    }
    if options.emulator == nil, let host = environment["FIRESTORE_EMULATOR_HOST"]?.trimmingCharacters(in: .whitespaces), !host.isEmpty {
      options.emulator = host
    }
    return options
  }
}
