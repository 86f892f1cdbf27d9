import BenchmarkSupport

/// Every scenario, in the order `--help` lists them, and the names that stand for several.
enum ScenarioCatalog {
  static let all: [Scenario] = [
    Scenario(name: "s1", summary: "query category==tech order publishedAt desc, 400 full documents, data() of each") {
      try await QueryScenarios.s1($0)
    },
    Scenario(name: "s2", summary: "the same query with an ID-only projection (selectDocumentIDs), 400 IDs") {
      try await QueryScenarios.s2($0)
    },
    Scenario(name: "s3", summary: "the whole collection ID-only, 2000 IDs") { try await QueryScenarios.s3($0) },
    Scenario(name: "s3c", summary: "the whole collection, 2000 full documents, data() of each (network + decode)") {
      try await QueryScenarios.s3c($0)
    },
    Scenario(name: "s4", summary: "getAll (one :batchGet) of the 20 documents of dataset.get_ids_20()") { try await GetScenarios.s4($0) },
    Scenario(name: "s5a", summary: "the same 20 documents with getDocument() one after another (time per 20)") {
      try await GetScenarios.s5a($0)
    },
    Scenario(name: "s5b", summary: "the same 20 getDocument() calls concurrently in a task group (time per 20)") {
      try await GetScenarios.s5b($0)
    },
    Scenario(name: "s5b.h2", summary: "s5b through a TLS + HTTP/2 front of the emulator (--front, --ca-file): one connection") {
      try await GetScenarios.s5bHTTP2($0)
    },
    Scenario(name: "s6", summary: "listen: a second client's setData() start -> the listener's .added change (also: listen)") {
      try await ListenScenarios.s6($0)
    },
    Scenario(name: "s7a", summary: "setData() of a small document (one timestamp)") { try await WriteScenarios.s7a($0) },
    Scenario(name: "s7b", summary: "setData() of an article-shaped document (~2.2 KB)") { try await WriteScenarios.s7b($0) },
    Scenario(name: "s7c", summary: "a WriteBatch of 500 article-shaped setData() committed") { try await WriteScenarios.s7c($0) },
    Scenario(name: "decode", summary: "a recorded 5.8 MB :runQuery body (2000 articles) -> snapshots, no network; JSON parse alone") {
      try await DecodeScenario.run($0)
    },
    Scenario(name: "reader", summary: "seed 000's walk with ArticleFeed + ArticleNavigator vs one get per article") {
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
    Scenario(name: "cache", summary: "server vs cache query, and the latency-compensation echo, on an in-process mock") {
      try await MockScenarios.cache($0)
    },
  ]

  /// What runs when no scenario is named: the suite of issue 6.
  static let suite = ["s1", "s2", "s3", "s3c", "s4", "s5a", "s5b", "s6", "s7a", "s7b", "s7c", "decode", "reader", "stream100k"]

  /// Other names: groups and the names of earlier versions.
  static let aliases: [String: [String]] = [
    "all": suite, "peer": ["s1", "s2", "s3", "s3c", "s4", "s5a", "s5b", "s6", "s7a", "s7b", "s7c"], "listen": ["s6"],
    "s5": ["s5a", "s5b"], "s7": ["s7a", "s7b", "s7c"],
  ]

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
    return lines.joined(separator: "\n") + "\n  groups: all (the default), peer (s1-s7c), s5, s7; listen = s6\n"
  }
}
