import BenchmarkSupport
import FirestoreClient
import Foundation

/// The targets of s1, s4, s5a, s7a, s7b and s7c timed in pairs: each run of the client call
/// (public API, default settings) sits beside the same requests sent curl's way
/// (``CurlEasyBaseline``), sent so from a thread of their own that the caller awaits
/// (``CurlHandOffBaseline``: an async client's floor), and sent through a bare
/// `CurlTransport`, in a rotating order. The requests are the client's own, recorded from
/// one run of the call. A machine whose speed drifts by a fifth within minutes (the
/// emulator shares its two cores) then slows all four alike, and the median of the per-run
/// ratios holds still where ratios of medians taken minutes apart do not.
enum PairedScenario {
  /// One target: its peer-benchmark name, its scenario, and a maker of its client call
  /// (fresh state, such as the write counter, per client).
  struct Target {
    /// The peer benchmark's name (`s4`).
    var name: String
    /// The scenario whose call it times (`get-all`).
    var scenario: String
    /// Makes the call from the seeded articles.
    var call: ([[String: any Sendable]]) -> (Firestore) async throws -> Void
    /// Timed runs at `--scale 1`.
    var countAtScaleOne: Int
  }

  static var targets: [Target] {
    [
      Target(name: "s1", scenario: "query-full", call: { _ in QueryScenarios.fullQuery }, countAtScaleOne: 30),
      Target(name: "s4", scenario: "get-all", call: { _ in GetScenarios.getAllOnce }, countAtScaleOne: 100),
      Target(name: "s5a", scenario: "get-sequential", call: { _ in GetScenarios.getSequentialOnce }, countAtScaleOne: 50),
      Target(name: "s7a", scenario: "set-small", call: { _ in WriteScenarios.smallSets() }, countAtScaleOne: 200),
      Target(name: "s7b", scenario: "set-article", call: { WriteScenarios.articleSets($0) }, countAtScaleOne: 200),
      Target(
        name: "s7c", scenario: "batch-500", call: { articles in { try await WriteScenarios.commitBatch500($0, articles) } },
        countAtScaleOne: 15),
    ]
  }

  /// Every target, a row each.
  static func run(_ options: BenchOptions) async throws -> [BenchResult] {
    #if canImport(CCurl)
      let articles = try await PeerDataset.articles(in: try PeerDataset.firestore(options))
      var rows: [BenchResult] = []
      // One for all targets: its thread and its connection last as long as the process.
      let handOff = try CurlHandOffBaseline()
      for target in targets { rows.append(try await run(target, articles: articles, handOff: handOff, options)) }
      return rows
    #else
      throw ToolFailure("the paired scenarios need libcurl")
    #endif
  }

  #if canImport(CCurl)
    private static func run(
      _ target: Target, articles: [[String: any Sendable]], handOff: CurlHandOffBaseline, _ options: BenchOptions
    ) async throws -> BenchResult {
      let host = try options.emulatorHost()
      // The requests, as the client sends them.
      let recorder = RecordingTransport()
      let settings = FirestoreSettings.emulator(host: host)
      settings.transport = recorder
      try await target.call(articles)(Firestore(projectID: PeerDataset.project, settings: settings))
      // Marked as the client marks them (a unary call reads its reply whole).
      let requests = recorder.requests

      let db = try PeerDataset.firestore(options)
      let call = target.call(articles)
      let transport = CurlTransport()
      let curl = try CurlEasyBaseline()
      let sides: [() async throws -> Void] = [
        { try await call(db) },
        { try await TransportProbe.send(requests, through: transport, for: target.name) },
        {
          for request in requests {
            let status = try curl.send(request)
            guard status == 200 else { throw ToolFailure("\(target.name): HTTP \(status) through curl") }
          }
        },
        {
          for request in requests {
            let status = try await handOff.send(request)
            guard status == 200 else { throw ToolFailure("\(target.name): HTTP \(status) through curl, handed over") }
          }
        },
      ]
      let clock = ContinuousClock()
      let runs = options.runs(target.countAtScaleOne)
      var samples = [[Double]](repeating: [], count: sides.count)
      for run in -max(2, runs / 10)..<runs {
        var times = [Double](repeating: 0, count: sides.count)
        // A rotating order: no side always goes first after the others' writes.
        for step in 0..<sides.count {
          let side = (step + max(run, 0)) % sides.count
          let start = clock.now
          try await sides[side]()
          times[side] = Statistics.milliseconds(clock.now - start)
        }
        guard run >= 0 else { continue }
        for side in sides.indices { samples[side].append(times[side]) }
      }
      let ratio = { (side: Int) in Statistics.median(zip(samples[side], samples[2]).map { $0 / $1 }) }
      var result = BenchResult(
        scenario: "\(target.scenario).paired",
        label: "\(target.name) paired run by run with curl's way, curl's way handed off, and the bare transport", samples: samples[0])
      result.figures += [
        ("curl_ms", .number(Statistics.median(samples[2]))), ("transport_ms", .number(Statistics.median(samples[1]))),
        ("handoff_ms", .number(Statistics.median(samples[3]))), ("x_curl", .number(ratio(0))),
        ("transport_x_curl", .number(ratio(1))), ("handoff_x_curl", .number(ratio(3))), ("requests", .integer(requests.count)),
      ]
      return result
    }
  #endif
}
