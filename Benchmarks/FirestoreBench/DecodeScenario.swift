import BenchmarkSupport
import FirestoreClient
import FirestoreWire
import Foundation

/// `decode`: a recorded `:runQuery` response body (the 2000 articles of the whole-collection
/// query, 5.8 MB from the emulator) decoded into document snapshots, with no network.
///
/// The body is `--body FILE`, or recorded from the emulator at run time into a temporary
/// file (5.8 MB is too much to keep in the repository). Reported, each over the same runs
/// (3 warm-up, then 20 at scale 2) with process CPU per run:
///
/// - `decode`: `getDocuments()` of a client whose transport replays the body, cache off:
///   everything the client does with a reply (JSON parse, `RunQueryResponse`, references,
///   snapshots). This is the figure the issue compares with CPython's `json.loads`.
/// - `decode.data`: the same, then `data()` of every snapshot (as Python's `to_dict()`).
/// - `decode.wire`: `JSONParser.parse` then `Document(json:)` per element (the wire model
///   only; the figure the earlier `decode` reported).
/// - `decode.json`: `JSONParser.parse` alone.
enum DecodeScenario {
  /// The whole-collection query of `make_rest_bodies.py`'s `q_full_all.json`.
  static let queryBody = #"{"structuredQuery":{"from":[{"collectionId":"articles"}]}}"#

  static func run(_ options: BenchOptions) async throws -> [BenchResult] {
    let (body, source) = try await recordedBody(options)
    let reps = options.runs(10)
    let warmup = 3
    // Where the documents live, from the first one's name, so that any recorded runQuery
    // body decodes (snapshots check that names belong to the client's database).
    let documents: [Document]
    do {
      documents = try (JSONParser.parse(body).arrayValue ?? []).compactMap { try RunQueryResponse(json: $0).document }
    } catch {
      throw ToolFailure("decode: \(source) is not a :runQuery response: \(error)")
    }
    guard let first = documents.first else { throw ToolFailure("decode: \(source) holds no documents") }
    let (projectID, databaseID, collectionID) = try location(of: first.name)

    let settings = FirestoreSettings.emulator(host: "replay.invalid:1")
    settings.transport = ReplayTransport(body: body)
    settings.cache = .none
    let db = Firestore(projectID: projectID, database: databaseID, settings: settings)
    let query = db.collection(collectionID)

    func describe(_ result: inout BenchResult) {
      result.add("docs", .integer(documents.count))
      result.add("bytes", .integer(body.count))
    }
    var snapshots = BenchResult(
      scenario: "decode", label: "\(body.count) B :runQuery body -> \(documents.count) snapshots (getDocuments, replayed, cache off)",
      measurement: try await Measurement.run(warmup: warmup, reps: reps) {
        try PeerDataset.expect(try await query.getDocuments().count, documents.count, "decoded snapshots")
      })
    describe(&snapshots)
    snapshots.add("body", .text(source))
    var data = BenchResult(
      scenario: "decode.data", label: "the same, then data() of each snapshot",
      measurement: try await Measurement.run(warmup: warmup, reps: reps) {
        let rows = try await query.getDocuments().documents.map { $0.data() }
        try PeerDataset.expect(rows.count, documents.count, "decoded rows")
      })
    describe(&data)
    var wire = BenchResult(
      scenario: "decode.wire", label: "JSONParser.parse + Document(json:) per element (wire model only)",
      measurement: try await Measurement.run(warmup: warmup, reps: reps) {
        var count = 0
        for element in try JSONParser.parse(body).arrayValue ?? [] {
          if let document = element["document"] {
            _ = try Document(json: document)
            count += 1
          }
        }
        try PeerDataset.expect(count, documents.count, "decoded documents")
      })
    describe(&wire)
    var json = BenchResult(
      scenario: "decode.json", label: "JSONParser.parse alone",
      measurement: try await Measurement.run(warmup: warmup, reps: reps) { _ = try JSONParser.parse(body) })
    describe(&json)
    return [snapshots, data, wire, json]
  }

  /// `--body`, or a body recorded from the emulator into a temporary file; and where it
  /// came from, for the output.
  static func recordedBody(_ options: BenchOptions) async throws -> (Data, String) {
    if let path = options.body {
      guard let data = FileManager.default.contents(atPath: path) else { throw ToolFailure("decode: cannot read --body \(path)") }
      return (data, path)
    }
    guard options.emulator != nil else {
      throw ToolFailure.usage("decode needs --body FILE or an emulator seeded by Benchmarks/peer/seed.py to record one from")
    }
    let host = try options.emulatorHost()
    let url = URL(string: "http://\(host)/v1/projects/\(PeerDataset.project)/databases/(default)/documents:runQuery")!
    let request = HTTPRequest(
      method: "POST", url: url, headers: ["Content-Type": "application/json", "Authorization": "Bearer owner"],
      body: Data(queryBody.utf8))
    let response = try await CurlTransport().send(request)
    let data = try await response.collectBody()
    guard response.status == 200 else { throw ToolFailure("decode: recording the body got HTTP \(response.status)") }
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("firestore-bench-runquery-\(UUID().uuidString).json")
    try data.write(to: path)
    return (data, path.path)
  }

  /// Project, database and collection ID of a document name
  /// `projects/P/databases/D/documents/.../C/ID`.
  static func location(of name: String) throws -> (String, String, String) {
    let parts = name.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    guard parts.count >= 7, parts[0] == "projects", parts[2] == "databases", parts[4] == "documents" else {
      throw ToolFailure("decode: \"\(name)\" is not a document name")
    }
    return (parts[1], parts[3], parts[5...].dropLast().joined(separator: "/"))
  }
}
