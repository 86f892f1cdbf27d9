import FirestoreTestSupport
import Foundation
import Testing

@testable import FirestoreClient

/// The inputs just inside the limits the bad-input catalog enforces, accepted by the client
/// and by both backends, so that no client-side rule is stricter than Firestore.
///
/// Also here: inputs the issue lists as possibly bad that Firestore accepts, which the
/// catalog therefore leaves out (NaN and infinities as values and increments, more than
/// 500 writes in one commit).
@Suite("Conformance: inputs at the limits")
struct BadInputBoundaryTests {
  @Test("maps nested 20 deep are stored and read back", arguments: Backend.all)
  func twentyLevels(_ backend: Backend) async throws {
    let ref = backend.collection().document("deep")
    try await ref.setData(["m": nestedMaps(20)])
    let path = Array(repeating: "m", count: 21)
    #expect(try await ref.getDocument().get(FieldPath(path)) as? Int == 1)
  }

  @Test("30 disjunctions in normal form run", arguments: Backend.all)
  func thirtyDisjunctions(_ backend: Backend) async throws {
    let c = backend.collection()
    try await c.document("d").setData(["a": 4, "b": 5])
    let or30 = c.whereFilter(.orFilter((0..<30).map { Filter.whereField("a", isEqualTo: $0) }))
    #expect(try await or30.getDocuments().documents.map(\.documentID) == ["d"])
    let inProduct = c.whereField("a", in: Array(0..<5)).whereField("b", in: Array(0..<6))
    #expect(try await inProduct.getDocuments().documents.map(\.documentID) == ["d"])
  }

  @Test("five aggregations run in one query", arguments: Backend.all)
  func fiveAggregations(_ backend: Backend) async throws {
    let c = backend.collection()
    try await c.document("x").setData(["a": 1, "b": 2])
    try await c.document("y").setData(["a": 3, "b": 4])
    let snapshot = try await c.aggregate([.count(), .sum("a"), .sum("b"), .average("a"), .average("b")]).getAggregation()
    #expect(snapshot.count == 2)
    #expect(snapshot.get(.sum("b")) as? Int == 6)
    #expect(snapshot.get(.average("a")) as? Double == 2)
  }

  @Test("a 1500-byte ID and names that only look reserved are accepted", arguments: Backend.all)
  func longIDAndNearReservedNames(_ backend: Backend) async throws {
    let c = backend.collection()
    let ref = c.document(String(repeating: "i", count: 1500))
    try await ref.setData(["__x": 1, "x__": 2, "___": 3])
    #expect(try await ref.getDocument().data()?.count == 3)
    #expect(try await c.whereField("__x", isEqualTo: 1).getDocuments().count == 1)
    #expect(try await c.order(by: "___").getDocuments().count == 1)
  }

  @Test("NaN and infinities are valid values and increments", arguments: Backend.all)
  func nanIsAValue(_ backend: Backend) async throws {
    let ref = backend.collection().document("n")
    try await ref.setData(["nan": Double.nan, "inf": Double.infinity, "n": 1.0])
    try await ref.updateData(["n": FieldValue.increment(Double.nan)])
    let data = try #require(try await ref.getDocument().data())
    #expect((data["nan"] as? Double)?.isNaN == true)
    #expect(data["inf"] as? Double == .infinity)
    #expect((data["n"] as? Double)?.isNaN == true)
  }

  @Test("a batch of 501 writes commits", arguments: Backend.all)
  func moreThan500Writes(_ backend: Backend) async throws {
    let c = backend.collection()
    let batch = backend.db.batch()
    for i in 0..<501 { batch.setData(["i": i], forDocument: c.document("d\(i)")) }
    #expect(try await batch.commit().count == 501)
    #expect(try await c.count.getAggregation().count == 501)
  }
}
