import BenchmarkSupport
import FirestoreClient
import Foundation

/// The client's own cost per call, without a network: the calls of set-small, get-all,
/// get-sequential and batch-500 through a transport that answers at once from memory. What a call costs beyond its
/// request is this, plus the hand-over to and from the transport's thread.
///
/// Calls back to back run with their code and data in the caches; against a server on the
/// same cores they do not (the server's answer runs between two calls). `--evict-mb` sweeps
/// that many MiB before each timed call to measure them so.
enum ClientCostScenarios {
  /// `client-cost`: set-small's `setData()`, get-all's `getAll` of 20, one of
  /// get-sequential's `getDocument()` calls and batch-500's commit, each answered at once.
  static func run(_ options: BenchOptions) async throws -> [BenchResult] {
    // `--target` keeps some of the four, named as `paired` names them.
    let measured = ["s4", "s5a", "s7a", "s7c"]
    if let targets = options.pairedTargets, !targets.contains(where: measured.contains) {
      throw ToolFailure.usage("client-cost measures \(measured.joined(separator: ", ")); --target names none of them")
    }
    let wanted = { (target: String) in options.pairedTargets?.contains(target) ?? true }
    let root = "projects/\(PeerDataset.project)/databases/(default)/documents"
    let commit = #"{"writeResults":[{"updateTime":"2026-01-01T00:00:00.000001Z"}],"commitTime":"2026-01-01T00:00:00.000001Z"}"#
    var found: [String] = []
    for i in 0..<20 {
      let fields =
        #"{"title":{"stringValue":"Article \#(i)"},"category":{"stringValue":"tech"},"views":{"integerValue":"\#(i * 7)"},"#
        + #""publishedAt":{"timestampValue":"2025-01-01T00:00:00Z"},"tags":{"arrayValue":{"values":[{"stringValue":"a"},{"stringValue":"b"}]}},"#
        + #""body":{"stringValue":"\#(String(repeating: "x", count: 1500))"}}"#
      found.append(
        #"{"found":{"name":"\#(root)/articles/a\#(i)","fields":\#(fields),"createTime":"2025-01-01T00:00:00Z","updateTime":"2025-01-01T00:00:00Z"},"readTime":"2026-01-01T00:00:00Z"}"#
      )
    }
    let writeResults = Array(repeating: #"{"updateTime":"2026-01-01T00:00:00.000001Z"}"#, count: 500).joined(separator: ",")
    let commit500 = #"{"writeResults":[\#(writeResults)],"commitTime":"2026-01-01T00:00:00.000001Z"}"#
    let one =
      #"{"name":"\#(root)/articles/a0","fields":{"title":{"stringValue":"Article 0"},"#
      + #""body":{"stringValue":"\#(String(repeating: "x", count: 1500))"}},"#
      + #""createTime":"2025-01-01T00:00:00Z","updateTime":"2025-01-01T00:00:00Z"}"#
    let replies = (
      small: Data(commit.utf8), large: Data(commit500.utf8), found: Data(("[" + found.joined(separator: ",") + "]").utf8),
      one: Data(one.utf8)
    )
    let transport = ReplayTransport(enforcesDeadlines: true) { request in
      if request.url.path.hasSuffix(":batchGet") { return replies.found }
      if request.method == "GET" { return replies.one }
      guard request.url.path.hasSuffix(":commit") else { return nil }
      // batch-500's body is over a megabyte; set-small's a few hundred bytes.
      return (request.body?.count ?? 0) > 100_000 ? replies.large : replies.small
    }
    let settings = FirestoreSettings.emulator(host: "127.0.0.1:9")
    settings.transport = transport
    let db = Firestore(projectID: PeerDataset.project, settings: settings)
    let eviction = options.evictMegabytes > 0 ? CacheEviction(megabytes: options.evictMegabytes) : nil
    var results: [BenchResult] = []
    var n = 0
    if wanted("s7c") {
      // Article-shaped, as the seeded ones: a 40-character title, 2 KB of content, a
      // category, a timestamp, a count and three tags.
      let articles: [[String: Any]] = (0..<500).map { i in
        [
          "title": "Article \(i): " + String(repeating: "t", count: 26), "content": String(repeating: "c", count: 2048),
          "category": "tech", "publishedAt": Date(timeIntervalSince1970: 1_700_000_000 + Double(i) * 2220), "views": i * 37,
          "tags": ["swift", "linux", "cloud"],
        ]
      }
      let batches = try await Measurement.run(warmup: 3, reps: options.runs(30), before: eviction?.sweep) {
        let batch = db.batch()
        let collection = db.collection("bench_batch")
        for i in 0..<500 { batch.setData(articles[i], forDocument: collection.document(WriteScenarios.name("b", i, 3))) }
        try PeerDataset.expect(try await batch.commit().count, 500, "client-cost batch-500 write results")
      }
      results.append(
        BenchResult(
          scenario: "batch-500.client", label: "batch-500's WriteBatch committed, answered at once (no network)", measurement: batches))
    }
    if wanted("s7a") {
      let sets = try await Measurement.run(warmup: 50, reps: options.runs(2000), before: eviction?.sweep) {
        n += 1
        try await db.collection("users/\(PeerDataset.uid)/favorites_w").document("w\(n % 1000)").setData(["starredAt": Date()])
      }
      results.append(
        BenchResult(scenario: "set-small.client", label: "set-small's setData() answered at once (no network)", measurement: sets))
    }
    let refs = (0..<20).map { db.collection("articles").document("a\($0)") }
    if wanted("s4") {
      let gets = try await Measurement.run(warmup: 20, reps: options.runs(500), before: eviction?.sweep) {
        let snapshots = try await db.getAll(refs)
        try PeerDataset.expect(snapshots.compactMap { $0.data() }.count, 20, "client-cost getAll")
      }
      results.append(
        BenchResult(scenario: "get-all.client", label: "get-all's getAll of 20 answered at once (no network)", measurement: gets))
    }
    if wanted("s5a") {
      let single = refs[0]
      let getOnes = try await Measurement.run(warmup: 100, reps: options.runs(4000), before: eviction?.sweep) {
        try PeerDataset.expect(try await single.getDocument().exists ? 1 : 0, 1, "client-cost getDocument")
      }
      results.append(
        BenchResult(
          scenario: "get-one.client", label: "get-sequential's getDocument() answered at once (no network)", measurement: getOnes))
    }
    return results
  }
}
