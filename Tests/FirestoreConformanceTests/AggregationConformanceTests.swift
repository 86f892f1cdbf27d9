import FirestoreTestSupport
import Foundation
import Testing

@testable import FirestoreClient

@Suite("Conformance: aggregations")
struct AggregationConformanceTests {
  private func seed(_ backend: Backend) async throws -> CollectionReference {
    let c = backend.collection()
    let batch = backend.db.batch()
    let rows: [[String: any Sendable]] = [
      ["pop": 1, "kind": "a"], ["pop": 2, "kind": "a"], ["pop": 2.5, "kind": "b"], ["pop": 4, "kind": "b"], ["kind": "b"],
    ]
    for (i, row) in rows.enumerated() { batch.setData(row, forDocument: c.document("d\(i)")) }
    try await batch.commit()
    return c
  }

  @Test("count, sum and average, alone and together, with filters", arguments: Backend.all)
  func aggregations(_ backend: Backend) async throws {
    let c = try await seed(backend)
    #expect(try await c.count.getAggregation().count == 5)
    #expect(try await c.whereField("kind", isEqualTo: "a").count.getAggregation().count == 2)
    let ints = try await c.whereField("kind", isEqualTo: "a").aggregate([.sum("pop"), .average("pop")]).getAggregation()
    #expect(ints.get(.sum("pop")) as? Int == 3)
    #expect(ints.get(.average("pop")) as? Double == 1.5)
    #expect(ints.get(.count()) == nil)
    let all = try await c.aggregate([.count(), .sum("pop"), .average("pop")]).getAggregation()
    #expect(all.get(.sum("pop")) as? Double == 9.5)
    #expect(all.get(.average("pop")) as? Double == 9.5 / 4)
    // Firestore's rule: with sum/avg on a field, count only sees documents having it.
    #expect(all.count == 4)
    let none = try await c.whereField("kind", isEqualTo: "zzz").aggregate([.count(), .sum("pop"), .average("pop")]).getAggregation()
    #expect(none.count == 0)
    #expect(none.get(.sum("pop")) as? Int == 0)
    #expect(none.get(.average("pop")) is NSNull)
  }

  /// The Apple SDK's count tests aggregate `limit(toLast:)` queries, with and without an
  /// ordering: the last documents of the ordering, or as many as the limit without one.
  @Test("aggregations over limit(toLast:), with or without order(by:)", arguments: Backend.all)
  func limitToLast(_ backend: Backend) async throws {
    let c = try await seed(backend)
    #expect(try await c.limit(toLast: 2).whereField("kind", isEqualTo: "b").count.getAggregation().count == 2)
    #expect(try await c.limit(toLast: 1000).whereField("kind", isEqualTo: "a").count.getAggregation().count == 2)
    let lastTwo = try await c.order(by: "pop").limit(toLast: 2).aggregate([.count(), .sum("pop")]).getAggregation()
    #expect(lastTwo.count == 2)
    #expect(lastTwo.get(.sum("pop")) as? Double == 6.5)
    let firstTwo = try await c.order(by: "pop").limit(to: 2).aggregate([.sum("pop")]).getAggregation()
    #expect(firstTwo.get(.sum("pop")) as? Int == 3)
  }

  /// The Python client's system tests count from a document cursor with no ordering, and
  /// under an inequality, whose cursor names the field and the document.
  @Test("aggregations from a document cursor, with no order(by:) and under an inequality", arguments: Backend.all)
  func documentCursor(_ backend: Backend) async throws {
    let c = try await seed(backend)
    let all = try await c.getDocuments().documents
    #expect(try await c.start(atDocument: all[1]).count.getAggregation().count == 4)
    #expect(try await c.end(beforeDocument: all[3]).count.getAggregation().count == 3)
    let inequality = c.whereField("pop", isGreaterThan: 1)
    let ordered = try await inequality.getDocuments().documents
    #expect(ordered.map(\.documentID) == ["d1", "d2", "d3"])
    let rest = try await inequality.start(afterDocument: ordered[0]).aggregate([.count(), .sum("pop")]).getAggregation()
    #expect(rest.count == 2)
    #expect(rest.get(.sum("pop")) as? Double == 6.5)
    #expect(try await c.order(by: "pop").limit(toLast: 3).start(atDocument: ordered[0]).count.getAggregation().count == 3)
  }

  @Test("aggregate queries and their results compare as the Apple SDK compares them", arguments: Backend.all)
  func equality(_ backend: Backend) async throws {
    let c = try await seed(backend)
    let kindA = c.whereField("kind", isEqualTo: "a")
    #expect(kindA.count == c.whereField("kind", isEqualTo: "a").count)
    #expect(kindA.count != c.count)
    #expect(kindA.aggregate([.sum("pop"), .count()]) != kindA.aggregate([.count(), .sum("pop")]))
    #expect(Set([kindA.count, kindA.count, c.count]).count == 2)
    let first = try await kindA.count.getAggregation(source: .server)
    #expect(try await kindA.count.getAggregation(source: .server) == first, "computed twice, unchanged")
    #expect(try await c.count.getAggregation(source: .server) != first)
  }

  @Test("an aggregation over an invalid field path fails before sending", arguments: Backend.all)
  func invalidAggregation(_ backend: Backend) async throws {
    let error = try await #require(throws: FirestoreError.self) {
      try await backend.collection().aggregate([.sum("a..b")]).getAggregation()
    }
    #expect(error.code == .invalidArgument && error.requestPath == nil)
  }
}
