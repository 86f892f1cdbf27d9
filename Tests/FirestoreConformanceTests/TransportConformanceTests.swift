import FirestoreMock
import FirestoreTestSupport
import FirestoreWire
import Foundation
import Testing

@testable import FirestoreClient

/// What the libcurl transport does with the intermediaries production puts in the way:
/// response compression (the mock answers `Accept-Encoding: gzip` as Google's front ends
/// do), HTTP/2 multiplexing through a real TLS front (`nghttpx`), and a real HTTPS proxy
/// (`tinyproxy`). The whole conformance suite also runs through the front as the `http2`
/// backend; these tests check what only the transport can tell.
@Suite("Conformance: transport through real intermediaries")
struct TransportConformanceTests {
  /// Writes `count` documents of about 600 bytes each into a fresh collection.
  private func seed(_ backend: Backend, count: Int, _ hint: String = #function) async throws -> CollectionReference {
    let collection = backend.collection(hint)
    let text = String(repeating: "Firestore over libcurl compresses well. ", count: 15)
    for start in stride(from: 0, to: count, by: 500) {
      let batch = backend.db.batch()
      for n in start..<min(start + 500, count) {
        batch.setData(["n": n, "text": text, "tags": ["a", "b", "c"]], forDocument: collection.document("d\(n)"))
      }
      try await batch.commit()
    }
    return collection
  }

  @Test("a large reply comes gzip-compressed: the client asked for it, decoded it and moved fewer bytes", .requires(.mock))
  func compressedReplies() async throws {
    // A server of its own, so that its log holds this test's query alone.
    let server = try MockFirestoreServer.start()
    defer { server.stop() }
    let transport = CurlTransport()
    let settings = FirestoreSettings.emulator(host: server.hostAndPort)
    settings.transport = transport
    let db = Firestore(projectID: "compression", settings: settings)
    let text = String(repeating: "Firestore over libcurl compresses well. ", count: 15)
    let batch = db.batch()
    for n in 0..<400 { batch.setData(["n": n, "text": text, "tags": ["a", "b", "c"]], forDocument: db.document("docs/d\(n)")) }
    try await batch.commit()
    let before = transport.statistics
    let documents = try await db.collection("docs").getDocuments(source: .server).documents
    #expect(documents.count == 400)
    #expect(documents.allSatisfy { $0.get("text") as? String == text })
    let query = try #require(server.requestLog.entries.last { $0.path.hasSuffix(":runQuery") })
    let accepted = query.headers.first { $0.name == "accept-encoding" }?.value ?? ""
    #expect(accepted.contains("gzip"), "Accept-Encoding: \(accepted)")
    #expect(query.responseEncoding == "gzip")
    let wire = try #require(query.responseBodySize)
    let received = transport.statistics.bytesReceived - before.bytesReceived
    // What crossed the wire is the compressed body, several times smaller than the JSON.
    #expect(received == wire, "the transport counted \(received) bytes, the mock sent \(wire)")
    let decoded = documents.reduce(0) { $0 + DocumentSize.of(name: $1.reference.path, fields: $1.snapshot.fields ?? [:]) }
    #expect(wire * 4 < decoded, "\(wire) bytes on the wire for \(decoded) bytes of documents")
  }

  @Test("over HTTP/2, 20 concurrent reads share one connection", .requires(.http2))
  func multiplexedReads() async throws {
    let collection = try await seed(.http2, count: 20)
    let transport = CurlTransport(trustedCertificates: HTTP2Front.certificateAuthority)
    let settings = Backend.http2.settings()
    settings.transport = transport
    let db = Firestore(projectID: Backend.projectID, settings: settings)
    Ledger.record(.http2)
    // One read first, so the connection exists and is known to multiplex.
    _ = try await db.document(collection.document("d0").path).getDocument(source: .server)
    let before = transport.statistics
    #expect(before.connectionsOpened == 1 && before.http2Requests == 1, "\(before)")
    let values = try await withThrowingTaskGroup(of: Int.self) { group in
      for n in 0..<20 {
        group.addTask { try await db.document(collection.document("d\(n)").path).getDocument(source: .server).get("n") as? Int ?? -1 }
      }
      return try await group.reduce(into: [Int]()) { $0.append($1) }
    }
    #expect(values.sorted() == Array(0..<20))
    let after = transport.statistics
    #expect(after.connectionsOpened == 1, "20 concurrent reads opened \(after.connectionsOpened - 1) more connections")
    #expect(after.http2Requests - before.http2Requests == 20)
  }

  @Test("a proxy set on the transport carries every request, over TLS to the front", .requires(.http2))
  func explicitProxy() async throws {
    let proxy = try #require(TestProxy.url)
    let front = try #require(HTTP2Front.host)
    let transport = CurlTransport(trustedCertificates: HTTP2Front.certificateAuthority, proxy: proxy)
    let settings = Backend.http2.settings()
    settings.transport = transport
    let db = Firestore(projectID: Backend.projectID, settings: settings)
    Ledger.record(.http2)
    let tunnels = { TestProxy.tunnels(to: front) }
    let before = tunnels()
    let ref = db.document(Backend.http2.collection().document("via-proxy").path)
    try await ref.setData(["through": "tinyproxy"])
    #expect(try await ref.getDocument(source: .server).get("through") as? String == "tinyproxy")
    #expect(tunnels() > before, "the proxy's log shows no CONNECT to \(front)")
    #expect(transport.statistics.http2Requests >= 2)
  }
}
