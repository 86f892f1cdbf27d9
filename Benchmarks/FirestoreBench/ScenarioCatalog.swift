import BenchmarkSupport

/// Every scenario, in the order `--help` lists them, and the names that stand for several.
enum ScenarioCatalog {
  static let all: [Scenario] = [
    Scenario(name: "query-full", summary: "query category==tech order publishedAt desc, 400 full documents, data() of each") {
      try await QueryScenarios.queryFull($0)
    },
    Scenario(name: "query-ids", summary: "the same query with an ID-only projection (selectDocumentIDs), 400 IDs") {
      try await QueryScenarios.queryIDs($0)
    },
    Scenario(name: "collection-ids", summary: "the whole collection ID-only, 2000 IDs") { try await QueryScenarios.collectionIDs($0) },
    Scenario(name: "collection-full", summary: "the whole collection, 2000 full documents, data() of each (network + decode)") {
      try await QueryScenarios.collectionFull($0)
    },
    Scenario(name: "get-all", summary: "getAll (one :batchGet) of the 20 documents of dataset.get_ids_20()") {
      try await GetScenarios.getAll($0)
    },
    Scenario(name: "get-sequential", summary: "the same 20 documents with getDocument() one after another (time per 20)") {
      try await GetScenarios.getSequential($0)
    },
    Scenario(name: "get-concurrent", summary: "the same 20 getDocument() calls concurrently in a task group (time per 20)") {
      try await GetScenarios.getConcurrent($0)
    },
    Scenario(
      name: "get-concurrent.h2", summary: "get-concurrent through a TLS + HTTP/2 front of the emulator (--front, --ca-file): one connection"
    ) {
      try await GetScenarios.getConcurrentHTTP2($0)
    },
    Scenario(name: "listen-latency", summary: "listen: a second client's setData() start -> the listener's .added change ") {
      try await ListenScenarios.listenLatency($0)
    },
    Scenario(name: "set-small", summary: "setData() of a small document (one timestamp)") { try await WriteScenarios.setSmall($0) },
    Scenario(name: "set-article", summary: "setData() of an article-shaped document (~2.2 KB)") { try await WriteScenarios.setArticle($0) },
    Scenario(name: "batch-500", summary: "a WriteBatch of 500 article-shaped setData() committed") {
      try await WriteScenarios.batch500($0)
    },
    Scenario(name: "decode", summary: "a recorded 5.8 MB :runQuery body (2000 articles) -> snapshots, no network; JSON parse alone") {
      try await DecodeScenario.run($0)
    },
    Scenario(name: "reader", summary: "an article walk with ArticleFeed + ArticleNavigator vs one get per article") {
      try await ReaderScenario.run($0)
    },
    Scenario(name: "stream100k", summary: "peak RSS streaming a 100,000-document query from a firestore-mock-server child") {
      try await Stream100kScenario.run($0)
    },
    Scenario(name: "stream100k-seed", summary: "(stream100k's child) seed its 100,000 documents into the mock at --emulator") {
      try await Stream100kScenario.seedOnly($0)
    },
    Scenario(name: "compression", summary: "wire bytes of a 2000-document query from a gzipping mock child, against identity") {
      try await CompressionScenario.run($0)
    },
    Scenario(name: "listen-hold", summary: "hold one listener on users/u1/favorites for --seconds: process CPU while it idles") {
      try await ListenScenarios.hold($0)
    },
    Scenario(name: "bulk", summary: "--bulk-n articles through a BulkWriter into a fresh collection (emulator)") {
      try await BulkScenario.run($0)
    },
    Scenario(name: "mock-startup", summary: "MockFirestoreServer.start() until its first answer (in process)") {
      try await MockScenarios.startup($0)
    },
    Scenario(name: "client-cost", summary: "s7a's, s4's, s5a's and s7c's calls answered at once in memory: the client's cost") {
      try await ClientCostScenarios.run($0)
    },
    Scenario(
      name: "paired",
      summary: "s1, s4, s5a, s7a-c run by run beside their requests sent the curl way and through CurlTransport"
    ) {
      try await PairedScenario.run($0)
    },
    Scenario(name: "cache", summary: "server vs cache query, and the latency-compensation echo, on an in-process mock") {
      try await MockScenarios.cache($0)
    },
  ]

  /// What runs when no scenario is named.
  static let suite = peer + ["decode", "reader", "stream100k"]

  /// The operations of the peer benchmark (`Benchmarks/peer`), which numbers them s1 to s7.
  static let peer = [
    "query-full", "query-ids", "collection-ids", "collection-full", "get-all", "get-sequential", "get-concurrent", "listen-latency",
    "set-small", "set-article", "batch-500",
  ]

  /// The peer benchmark's names for the same operations, accepted on the command line.
  static let peerNames: [String: String] = [
    "s1": "query-full", "s2": "query-ids", "s3": "collection-ids", "s3c": "collection-full", "s4": "get-all", "s5a": "get-sequential",
    "s5b": "get-concurrent", "s5b.h2": "get-concurrent.h2", "s6": "listen-latency", "s7a": "set-small", "s7b": "set-article",
    "s7c": "batch-500",
  ]

  /// Names that stand for several scenarios.
  static let groups: [String: [String]] = [
    "all": suite, "peer": peer, "listen": ["listen-latency"], "get": ["get-sequential", "get-concurrent"],
    "set": ["set-small", "set-article", "batch-500"], "s5": ["get-sequential", "get-concurrent"],
    "s7": ["set-small", "set-article", "batch-500"],
  ]

  /// Names that stand for several scenarios, or for one under another name.
  static let aliases = groups.merging(peerNames.mapValues { [$0] }) { group, _ in group }

  /// The scenarios for the names of a command line (the suite for none).
  ///
  /// - Throws: ``ToolFailure`` (usage) for an unknown name, listing the known ones.
  static func expand(_ names: [String]) throws -> [String] {
    guard !names.isEmpty else { return suite }
    var result: [String] = []
    for name in names {
      if let group = aliases[name] {
        result += group
      } else if all.contains(where: { $0.name == name }) {
        result.append(name)
      } else {
        throw ToolFailure.usage(
          "unknown scenario \"\(name)\"; known: " + (all.map(\.name) + aliases.keys.sorted()).joined(separator: ", "))
      }
    }
    return result
  }

  /// The scenario named `name`.
  static func scenario(_ name: String) -> Scenario? { all.first { $0.name == name } }

  /// The scenario lines of `--help`.
  static var help: String {
    let width = all.map(\.name.count).max() ?? 0
    let lines = all.map { "  " + $0.name + String(repeating: " ", count: width - $0.name.count + 2) + $0.summary }
    let old = peerNames.sorted { $0.key < $1.key }.map { "\($0.key) = \($0.value)" }
    return lines.joined(separator: "\n") + "\n  groups: all (the default), peer, get, set, listen\n"
      + "  the peer benchmark's names: " + old.joined(separator: ", ") + "\n"
  }
}
