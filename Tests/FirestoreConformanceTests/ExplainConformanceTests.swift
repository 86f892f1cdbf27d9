import FirestoreTestSupport
import FirestoreWire
import Foundation
import Testing

@testable import FirestoreClient

/// Query explain (`explainOptions`). The emulator accepts the option and ignores it: it
/// runs the query and answers without `explainMetrics`, even when asked only to plan
/// (verified with curl), so there the client reports `unimplemented`. The mock answers as
/// production documents (see `ExplainPlanner`). Each case runs on both: on the emulator it
/// checks that the client says the server does not explain.
@Suite("Conformance: query explain")
struct ExplainConformanceTests {
  /// Runs `explain`; on the emulator checks that it fails with `unimplemented` and
  /// returns `nil`.
  private func explained<T>(_ backend: Backend, _ explain: () async throws -> T) async throws -> T? {
    guard backend.reachesEmulator else { return try await explain() }
    let error = await #expect(throws: FirestoreError.self) { try await explain() }
    #expect(error?.code == .unimplemented, "\(String(describing: error))")
    return nil
  }

  private func seed(_ backend: Backend) async throws -> CollectionReference {
    let c = backend.collection()
    let batch = backend.db.batch()
    for i in 0..<5 {
      batch.setData(["n": i, "kind": i % 2 == 0 ? "even" : "odd", "emb": VectorValue([Double(i), 1])], forDocument: c.document("d\(i)"))
    }
    try await batch.commit()
    return c
  }

  @Test("the emulator runs an explained query without explaining it, even when asked only to plan", .requires(.emulator))
  func emulatorDoesNotExplain() async throws {
    let backend = Backend.emulator
    let c = try await seed(backend)
    let error = await #expect(throws: FirestoreError.self) { try await c.explain() }
    #expect(error?.message.contains("emulator") == true)
    // What it sent instead: the results, with no explainMetrics anywhere.
    let request = RunQueryRequest(
      structuredQuery: StructuredQuery(from: [.init(collectionID: c.collectionID)]), explainOptions: ExplainRequestOptions(analyze: false))
    guard
      case .array(let elements) = try await backend.db.rest.unary(
        .init(.runQuery(parent: .root), body: request.json))
    else {
      Issue.record("runQuery reply is not an array")
      return
    }
    #expect(elements.compactMap { $0["document"] }.count == 5)
    #expect(elements.allSatisfy { $0["explainMetrics"] == nil })
  }

  @Test("a query planned only: the indexes, no results, no statistics", arguments: Backend.all)
  func planOnly(_ backend: Backend) async throws {
    let c = try await seed(backend)
    let query = c.whereField("kind", isEqualTo: "even").order(by: "n", descending: true)
    guard let explained = try await explained(backend, { try await query.explain() }) else { return }
    #expect(explained.snapshot == nil)
    #expect(explained.metrics.executionStats == nil)
    let index = try #require(explained.metrics.planSummary.indexesUsed.first)
    #expect(index["query_scope"] as? String == "Collection")
    #expect(index["properties"] as? String == "(kind ASC, n DESC, __name__ DESC)")
  }

  @Test("a query analyzed: its results as getDocuments gives them, results returned, reads billed, time taken", arguments: Backend.all)
  func analyzed(_ backend: Backend) async throws {
    let c = try await seed(backend)
    let query = c.whereField("kind", isEqualTo: "even").order(by: "n", descending: true)
    guard let explained = try await explained(backend, { try await query.explain(options: ExplainOptions(analyze: true)) }) else { return }
    let plain = try await query.getDocuments()
    let snapshot = try #require(explained.snapshot)
    #expect(snapshot.documents.map(\.documentID) == plain.documents.map(\.documentID))
    #expect(snapshot.documents.map(\.documentID) == ["d4", "d2", "d0"])
    let stats = try #require(explained.metrics.executionStats)
    #expect(stats.resultsReturned == 3)
    // Firestore bills one read per document returned.
    #expect(stats.readOperations == 3)
    #expect(stats.executionDuration >= .zero)
    #expect(stats.debugStats["documents_scanned"] as? String == "5")

    // A query that matches nothing is still billed one read (Firestore's minimum).
    let none = try await c.whereField("kind", isEqualTo: "none").explain(options: ExplainOptions(analyze: true))
    #expect(none.snapshot?.isEmpty == true)
    #expect(none.metrics.executionStats?.resultsReturned == 0)
    #expect(none.metrics.executionStats?.readOperations == 1)

    // limit(toLast:) comes back in query order, as from getDocuments.
    let last = try await c.order(by: "n").limit(toLast: 2).explain(options: ExplainOptions(analyze: true))
    #expect(last.snapshot?.documents.map(\.documentID) == ["d3", "d4"])
  }

  @Test("an aggregation explained: one result, one read per 1,000 index entries", arguments: Backend.all)
  func aggregation(_ backend: Backend) async throws {
    let c = try await seed(backend)
    guard let planned = try await explained(backend, { try await c.count.explain() }) else { return }
    #expect(planned.snapshot == nil)
    #expect(planned.metrics.executionStats == nil)
    #expect(!planned.metrics.planSummary.indexesUsed.isEmpty)
    let analyzed = try await c.aggregate([.count(), .sum("n")]).explain(options: ExplainOptions(analyze: true))
    #expect(analyzed.snapshot?.count == 5)
    #expect(analyzed.snapshot?.get(.sum("n")) as? Int == 10)
    #expect(analyzed.metrics.executionStats?.resultsReturned == 1)
    #expect(analyzed.metrics.executionStats?.readOperations == 1)
  }

  @Test("a vector search explained: its neighbours, closest first", arguments: Backend.all)
  func vectorSearch(_ backend: Backend) async throws {
    let c = try await seed(backend)
    let search = c.findNearest(vectorField: "emb", queryVector: [2.2, 1], limit: 2, distanceMeasure: .euclidean)
    guard let explained = try await explained(backend, { try await search.explain(options: ExplainOptions(analyze: true)) }) else { return }
    #expect(explained.snapshot?.documents.map(\.documentID) == ["d2", "d3"])
    #expect(explained.metrics.executionStats?.resultsReturned == 2)
    #expect((explained.metrics.planSummary.indexesUsed.first?["properties"] as? String)?.contains("emb") == true)
  }

  @Test("an invalid query fails before sending, explained or not", arguments: Backend.all)
  func invalidQuery(_ backend: Backend) async throws {
    let error = await #expect(throws: FirestoreError.self) { try await backend.collection().whereField("a..b", isEqualTo: 1).explain() }
    #expect(error?.code == .invalidArgument && error?.requestPath == nil)
  }
}
