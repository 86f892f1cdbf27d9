import BenchmarkSupport
import FirestoreClient
import FirestoreWire
import Foundation

/// The targets of s1, s4, s5a, s7a, s7b and s7c timed in pairs: each run of the client call
/// (public API, default settings) sits beside the same requests sent curl's way
/// (``CurlEasyBaseline``), sent so from a thread of their own that the caller awaits
/// (``CurlHandOffBaseline``: an async client's hand-overs), sent so with each reply then
/// decoded into the wire model (the floor: the least any async client that returns what
/// the server sent must do), and sent through a bare `CurlTransport`, in a rotating order.
/// The requests are the client's own, recorded from one run of the call. A machine whose
/// speed drifts by a fifth within minutes (the emulator shares its two cores) then slows
/// all five alike, and the median of the per-run ratios holds still where ratios of
/// medians taken minutes apart do not.
///
/// A single write's replays do not all go to the document the recording wrote: each side
/// writes a cycle of documents of its own, as the client does. The emulator answers a write
/// to the one document it just wrote faster than one to a document of a cycle (libcurl's
/// time from request sent to first reply byte: 443 against 500 µs), which would time curl
/// on a lighter load than the client.
///
/// With `--side`, one side runs alone, its calls back to back as a scenario's own loop makes
/// them, and its row gives the process CPU per call: what a side costs, apart from the
/// caches and cores the others leave it.
enum PairedScenario {
  /// The sides, in the order of a run: the client's call, the bare transport, curl's way,
  /// curl's way handed off, and that with each reply decoded.
  static let sideNames = ["client", "transport", "curl", "handoff", "floor"]

  /// One target: its peer-benchmark name, its scenario, and a maker of its client call
  /// (fresh state, such as the write counter, per client).
  struct Target {
    /// The peer benchmark's name (`s4`).
    var name: String
    /// The scenario whose call it times (`get-all`).
    var scenario: String
    /// Makes the call from the seeded articles.
    var call: ([[String: Any]]) -> (Firestore) async throws -> Void
    /// Timed runs at `--scale 1`.
    var countAtScaleOne: Int
    /// Reads one reply's body into the wire model, as the client's call does (its
    /// documents' values, not the caller's dictionaries): the floor side's work.
    var decode: @Sendable (UnsafeBufferPointer<UInt8>) throws -> Void
    /// The ID of the document the recorded call writes, when each call writes the next of
    /// a cycle (``WriteScenarios``); `nil` when every call reads or writes the same ones.
    var cycledDocumentID: String? = nil
  }

  private static let decodeCommit: @Sendable (UnsafeBufferPointer<UInt8>) throws -> Void = { _ = try CommitResponse(jsonBytes: $0) }

  static var targets: [Target] {
    [
      Target(
        name: "s1", scenario: "query-full", call: { _ in QueryScenarios.fullQuery }, countAtScaleOne: 30,
        decode: { _ = try RunQueryResponse.decodeArray($0) }),
      Target(
        name: "s4", scenario: "get-all", call: { _ in GetScenarios.getAllCalls() }, countAtScaleOne: 100,
        decode: { _ = try BatchGetResponse.decodeArray($0) }),
      Target(
        name: "s5a", scenario: "get-sequential", call: { _ in GetScenarios.getSequentialCalls() }, countAtScaleOne: 50,
        decode: { _ = try Document(jsonBytes: $0) }),
      Target(
        name: "s7a", scenario: "set-small", call: { _ in WriteScenarios.smallSets() }, countAtScaleOne: 200, decode: decodeCommit,
        cycledDocumentID: WriteScenarios.name("w", 1, 4)),
      Target(
        name: "s7b", scenario: "set-article", call: { WriteScenarios.articleSets($0) }, countAtScaleOne: 200, decode: decodeCommit,
        cycledDocumentID: WriteScenarios.name("w", 1, 4)),
      Target(
        name: "s7c", scenario: "batch-500", call: { articles in { try await WriteScenarios.commitBatch500($0, articles) } },
        countAtScaleOne: 15, decode: decodeCommit),
    ]
  }

  /// Every target, a row each.
  static func run(_ options: BenchOptions) async throws -> [BenchResult] {
    #if canImport(CCurl)
      let articles = try await PeerDataset.articles(in: try PeerDataset.firestore(options))
      var rows: [BenchResult] = []
      // One of each for all targets: their threads and connections last as long as the
      // process.
      let handOff = try CurlHandOffBaseline()
      let floor = try CurlHandOffBaseline(keepsBody: true)
      for target in targets where options.pairedTargets?.contains(target.name) ?? true {
        rows.append(try await run(target, articles: articles, handOff: handOff, floor: floor, options))
      }
      return rows
    #else
      throw ToolFailure("the paired scenarios need libcurl")
    #endif
  }

  #if canImport(CCurl)
    private static func run(
      _ target: Target, articles: [[String: Any]], handOff: CurlHandOffBaseline, floor: CurlHandOffBaseline, _ options: BenchOptions
    ) async throws -> BenchResult {
      let host = try options.emulatorHost()
      // The requests, as the client sends them.
      let recorder = RecordingTransport()
      let settings = FirestoreSettings.emulator(host: host)
      settings.transport = recorder
      try await target.call(articles)(Firestore(projectID: PeerDataset.project, settings: settings))
      // Marked as the client marks them (a unary call reads its reply whole).
      let recorded = recorder.requests

      let db = try PeerDataset.firestore(options)
      let call = target.call(articles)
      let transport = CurlTransport()
      let touch = options.pairedTouchLines > 0 ? ColdLines(lines: options.pairedTouchLines, pages: options.pairedTouchPages) : nil
      let curl = try CurlEasyBaseline()
      // Each side's requests for one run, made before it is timed.
      let sides: [([HTTPRequest]) async throws -> Void] = [
        { _ in try await call(db) },
        { try await TransportProbe.send($0, through: transport, for: target.name, spin: options.pairedSpin, touch: touch) },
        {
          for request in $0 {
            let status = try curl.send(request)
            guard status == 200 else { throw ToolFailure("\(target.name): HTTP \(status) through curl") }
          }
        },
        {
          for request in $0 {
            let status = try await handOff.send(request).status
            guard status == 200 else { throw ToolFailure("\(target.name): HTTP \(status) through curl, handed over") }
          }
        },
        {
          for request in $0 {
            let (status, body) = try await floor.send(request)
            guard status == 200 else { throw ToolFailure("\(target.name): HTTP \(status) through curl, handed over to decode") }
            try body.withUnsafeBytes { try target.decode($0.bindMemory(to: UInt8.self)) }
          }
        },
      ]
      if target.cycledDocumentID != nil, replays(of: recorded, renaming: target.cycledDocumentID, side: 1, call: 0) == recorded {
        throw ToolFailure("\(target.name): the recorded requests do not write \(target.cycledDocumentID ?? "")")
      }
      let clock = ContinuousClock()
      let runs = options.runs(target.countAtScaleOne)
      var samples = [[Double]](repeating: [], count: sides.count)
      let warmups = max(2, runs / 10)
      let alone = options.pairedSide.flatMap { sideNames.firstIndex(of: $0) }
      // The sides that take turns, in the order of a run.
      let chosen = options.pairedSides.map { names in sides.indices.filter { names.contains(sideNames[$0]) } }
      let turns = alone.map { [$0] } ?? chosen ?? Array(sides.indices)
      // Every run's requests, made before any is timed: renaming a write's document between
      // the calls would put the benchmark's own string work, and the caches it takes,
      // before each timed call.
      let plans = (0..<(warmups + runs)).map { call in
        sides.indices.map { replays(of: recorded, renaming: target.cycledDocumentID, side: $0, call: call) }
      }
      // Process CPU within the timed calls of the side alone.
      var cpu = 0.0
      for run in -warmups..<runs {
        var times = [Double](repeating: 0, count: sides.count)
        // A rotating order: no side always goes first after the others' writes.
        for step in turns.indices {
          let side = turns[(step + max(run, 0)) % turns.count]
          let requests = plans[run + warmups][side]
          let cpuBefore = alone == nil ? 0 : ProcessCPUTime.now()
          let start = timedCallStarts(clock)
          try await sides[side](requests)
          times[side] = Statistics.milliseconds(clock.now - start)
          if run >= 0, alone != nil { cpu += ProcessCPUTime.now() - cpuBefore }
        }
        guard run >= 0 else { continue }
        for side in turns { samples[side].append(times[side]) }
      }
      if let alone {
        var result = BenchResult(
          scenario: "\(target.scenario).\(sideNames[alone])",
          label: "\(target.name): the \(sideNames[alone]) side alone, its calls back to back", samples: samples[alone])
        result.figures += [("cpu_ms", .number(cpu / Double(runs))), ("requests", .integer(recorded.count))]
        return result
      }
      let ratio = { (side: Int) in Statistics.median(zip(samples[side], samples[2]).map { $0 / $1 }) }
      var result = BenchResult(
        scenario: "\(target.scenario).paired",
        label: turns.count == sides.count
          ? "\(target.name) paired run by run with curl's way, handed off, handed off and decoded, and the bare transport"
          : "\(target.name) paired run by run with \(turns.filter { $0 != 0 }.map { sideNames[$0] }.joined(separator: ", "))",
        samples: samples[0])
      result.figures.append(("curl_ms", .number(Statistics.median(samples[2]))))
      let others = [(1, "transport"), (3, "handoff"), (4, "floor")].filter { turns.contains($0.0) }
      for (side, name) in others { result.figures.append(("\(name)_ms", .number(Statistics.median(samples[side])))) }
      result.figures.append(("x_curl", .number(ratio(0))))
      for (side, name) in others { result.figures.append(("\(name)_x_curl", .number(ratio(side)))) }
      result.figures.append(("requests", .integer(recorded.count)))
      return result
    }

    /// The start of a timed call. Never inlined, so that a profiler sees each call begin:
    /// `valgrind --tool=callgrind --dump-before='*timedCallStarts*'` writes one profile
    /// from each call's start to the next's (README, "Instructions per call").
    @inline(never)
    static func timedCallStarts(_ clock: ContinuousClock) -> ContinuousClock.Instant {
      clock.now
    }

    /// The first letter of each side's documents: the client's own (``WriteScenarios``), then
    /// the bare transport's, curl's, the hand-off's and the floor's.
    private static let cyclePrefixes = ["w", "t", "c", "h", "f"]

    /// The recorded requests as side `side` sends them for its `call`-th call: unchanged,
    /// or with the document `id` renamed to the call's document of the side's own cycle
    /// (`c0042` for side 2's 42nd call): as long a name, so the body keeps its size.
    static func replays(of recorded: [HTTPRequest], renaming id: String?, side: Int, call: Int) -> [HTTPRequest] {
      guard let id, id.count > 1 else { return recorded }
      let renamed = WriteScenarios.name(cyclePrefixes[side], call % 1000, id.count - 1)
      return recorded.map { request in
        var request = request
        if let body = request.body, let text = String(data: body, encoding: .utf8) {
          request.body = Data(text.replacingOccurrences(of: "/\(id)\"", with: "/\(renamed)\"").utf8)
        }
        return request
      }
    }
  #endif
}
