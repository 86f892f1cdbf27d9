import BenchmarkSupport
import FirestoreClient
import FirestoreWire
import Foundation

/// `compression`: the bytes a whole-collection query of 2,000 article-shaped documents moves
/// over the wire from a server that compresses (a `firestore-mock-server` child process,
/// which gzips JSON replies as Google's front ends do), against the same reply uncompressed.
///
/// The client asks for every encoding libcurl decodes; the uncompressed size is the same
/// query sent with `Accept-Encoding: identity`. Both are counted by the transport as they
/// come off the socket (`CurlTransport.Statistics.bytesReceived`). The target is at most
/// 25 % of the uncompressed body.
enum CompressionScenario {
  static let collection = "compressed"

  static func run(_ options: BenchOptions) async throws -> [BenchResult] {
    let server = try MockServerProcess.start(options.mockServer, for: "compression")
    defer { server.stop() }
    let transport = CurlTransport()
    let settings = FirestoreSettings.emulator(host: server.hostAndPort)
    settings.transport = transport
    settings.cache = .none
    let db = Firestore(projectID: PeerDataset.project, settings: settings)
    for first in stride(from: 0, to: PeerDataset.articleCount, by: 500) {
      let batch = db.batch()
      for i in first..<min(first + 500, PeerDataset.articleCount) {
        batch.setData(BulkArticles.article(i), forDocument: db.collection(collection).document(PeerDataset.articleID(i)))
      }
      _ = try await batch.commit()
    }

    let clock = ContinuousClock()
    var samples: [Double] = []
    var compressed = 0
    for _ in 0..<options.runs(10) {
      let before = transport.statistics.bytesReceived
      let start = clock.now
      let documents = try await db.collection(collection).getDocuments().documents
      samples.append(Statistics.milliseconds(clock.now - start))
      try PeerDataset.expect(documents.count, PeerDataset.articleCount, "compression documents")
      compressed = transport.statistics.bytesReceived - before
    }
    let uncompressed = try await identityBytes(server.hostAndPort, transport)
    var result = BenchResult(
      scenario: "compression", label: "whole-collection query of \(PeerDataset.articleCount) articles from a gzipping server",
      samples: samples)
    result.add("wire_bytes", .integer(compressed))
    result.add("uncompressed_bytes", .integer(uncompressed))
    result.add("wire_share", .number(Double(compressed) / Double(max(uncompressed, 1))))
    return [result]
  }

  /// The bytes of the same reply when the client takes no compression.
  static func identityBytes(_ host: String, _ transport: CurlTransport) async throws -> Int {
    let url = URL(string: "http://\(host)/v1/projects/\(PeerDataset.project)/databases/(default)/documents:runQuery")!
    let body = #"{"structuredQuery":{"from":[{"collectionId":"\#(collection)"}]}}"#
    let before = transport.statistics.bytesReceived
    let response = try await transport.send(
      HTTPRequest(
        method: "POST", url: url,
        headers: ["Content-Type": "application/json", "Authorization": "Bearer owner", "Accept-Encoding": "identity"],
        body: Data(body.utf8)))
    _ = try await response.collectBody()
    guard response.status == 200, response.headers["content-encoding"] == nil else {
      throw ToolFailure("compression: the identity query answered HTTP \(response.status), \(response.headers["content-encoding"] ?? "")")
    }
    return transport.statistics.bytesReceived - before
  }
}
