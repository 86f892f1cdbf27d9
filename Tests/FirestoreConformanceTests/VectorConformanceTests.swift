import FirestoreTestSupport
import FirestoreWire
import Foundation
import Testing

@testable import FirestoreClient

/// Vector values and nearest-neighbour search, on the mock and the emulator alike (the
/// emulator implements `findNearest`; the mock follows what it answers).
@Suite("Conformance: vectors and findNearest")
struct VectorConformanceTests {
  private struct Bean: Codable, Sendable, Equatable {
    var name: String
    var embedding: VectorValue
    var extra: VectorValue?
  }

  /// Five documents: four 2-dimensional vectors (one zero), one of another dimension, one
  /// that is not a vector, one without the field.
  private func seed(_ backend: Backend) async throws -> CollectionReference {
    let c = backend.collection()
    let batch = backend.db.batch()
    let rows: [(String, [String: any Sendable])] = [
      ("v1", ["emb": FieldValue.vector([1, 1]), "n": 1]),
      ("v2", ["emb": FieldValue.vector([2, 1]), "n": 2]),
      ("v3", ["emb": FieldValue.vector([3, 1]), "n": 3]),
      ("v7", ["emb": FieldValue.vector([0, 0]), "n": 7]),
      ("wide", ["emb": FieldValue.vector([1, 2, 3]), "n": 4]),
      ("text", ["emb": "not a vector", "n": 5]),
      ("none", ["n": 6]),
    ]
    for (id, data) in rows { batch.setData(data, forDocument: c.document(id)) }
    try await batch.commit()
    return c
  }

  @Test(
    "a vector round-trips: FieldValue.vector in, VectorValue out, the tagged map on the wire, Codable both ways", arguments: Backend.all)
  func roundTrip(_ backend: Backend) async throws {
    let c = backend.collection()
    let ref = c.document("k")
    try await ref.setData(["name": "Kahawa", "emb": FieldValue.vector([0.25, -1.5, 3e-300]), "floats": VectorValue([Float(0.5)])])
    let snapshot = try await ref.getDocument()
    #expect(snapshot.get("emb") as? VectorValue == VectorValue([0.25, -1.5, 3e-300]))
    #expect(snapshot.get("floats") as? VectorValue == VectorValue([0.5]))
    #expect(snapshot.fields?["emb"] == .vector([0.25, -1.5, 3e-300]))
    #expect(
      snapshot.fields?["emb"]
        == .map(["__type__": .string("__vector__"), "value": .array([.double(0.25), .double(-1.5), .double(3e-300)])]))

    let bean = Bean(name: "Kahawa", embedding: VectorValue([1, 2]), extra: nil)
    // As in the Apple SDK, setData(from:) queues the write; waitForPendingWrites() waits for the server.
    try c.document("b").setData(from: bean)
    try await c.firestore.waitForPendingWrites()
    #expect(try await c.document("b").getDocument().fields?["embedding"] == .vector([1, 2]))
    #expect(try await c.document("b").getDocument(as: Bean.self) == bean)
    // A query result and an equality filter on a vector see the same value.
    let found = try await c.whereField("embedding", isEqualTo: VectorValue([1, 2])).getDocuments()
    #expect(found.documents.map(\.documentID) == ["b"])
    #expect(try found.documents[0].data(as: Bean.self) == bean)
  }

  @Test("findNearest: each measure orders by distance, closest first; the distance lands in distanceResultField", arguments: Backend.all)
  func measures(_ backend: Backend) async throws {
    let c = try await seed(backend)
    let query: [Double] = [2.2, 1]
    let euclidean = try await c.findNearest(
      vectorField: "emb", queryVector: query, limit: 10, distanceMeasure: .euclidean, distanceResultField: "d"
    ).getDocuments()
    // Only the 2-dimensional vectors take part: not "wide", "text" or "none".
    #expect(euclidean.documents.map(\.documentID) == ["v2", "v3", "v1", "v7"])
    let distances = euclidean.documents.map { $0.get("d") as? Double ?? .nan }
    let expected = [0.2, 0.8, 1.2, (2.2 * 2.2 + 1).squareRoot()]
    #expect(zip(distances, expected).allSatisfy { abs($0 - $1) < 1e-12 }, "\(distances)")
    // Everything else of the document comes back too.
    #expect(euclidean.documents[0].get("n") as? Int == 2)
    #expect(euclidean.documents[0].get("emb") as? VectorValue == VectorValue([2, 1]))

    let dot = try await c.findNearest(
      vectorField: "emb", queryVector: query, limit: 3, distanceMeasure: .dotProduct, distanceResultField: "d"
    )
    .getDocuments()
    #expect(dot.documents.map(\.documentID) == ["v3", "v2", "v1"])
    #expect(abs((dot.documents[0].get("d") as? Double ?? 0) - 7.6) < 1e-12)

    let cosine = try await c.findNearest(
      vectorField: "emb", queryVector: query, limit: 10, distanceMeasure: .cosine, distanceResultField: "d"
    )
    .getDocuments()
    #expect(cosine.documents.map(\.documentID) == ["v2", "v3", "v1", "v7"])
    let expectedCosine = 1 - 5.4 / ((5.0).squareRoot() * (5.84).squareRoot())
    #expect(abs((cosine.documents[0].get("d") as? Double ?? 0) - expectedCosine) < 1e-12)
    // The zero vector has no angle: the emulator reports a NaN distance and sorts it last.
    // Production's documentation is silent about zero vectors under COSINE.
    #expect((cosine.documents[3].get("d") as? Double)?.isNaN == true)
  }

  @Test("findNearest: the limit, a threshold (<= for distances, >= for dot products), filters first, a projection", arguments: Backend.all)
  func limitsAndFilters(_ backend: Backend) async throws {
    let c = try await seed(backend)
    let two = try await c.findNearest(vectorField: "emb", queryVector: [2.2, 1], limit: 2, distanceMeasure: .euclidean).getDocuments()
    #expect(two.documents.map(\.documentID) == ["v2", "v3"])
    #expect(two.documents[0].get("d") == nil, "no distanceResultField, no distance")

    let near = try await c.findNearest(
      vectorField: "emb", queryVector: [2.2, 1], limit: 10, distanceMeasure: .euclidean, distanceThreshold: 1.0
    )
    .getDocuments()
    #expect(near.documents.map(\.documentID) == ["v2", "v3"])
    let large = try await c.findNearest(
      vectorField: "emb", queryVector: [2.2, 1], limit: 10, distanceMeasure: .dotProduct, distanceThreshold: 5
    )
    .getDocuments()
    #expect(large.documents.map(\.documentID) == ["v3", "v2"])

    let filtered = try await c.whereField("n", isGreaterThan: 1).findNearest(
      vectorField: "emb", queryVector: [2.2, 1], limit: 10, distanceMeasure: .euclidean
    ).getDocuments()
    #expect(filtered.documents.map(\.documentID) == ["v2", "v3", "v7"])
    let equal = try await c.whereField("n", isEqualTo: 3).findNearest(
      vectorField: "emb", queryVector: [2.2, 1], limit: 10, distanceMeasure: .euclidean
    ).getDocuments()
    #expect(equal.documents.map(\.documentID) == ["v3"])

    // A projection keeps only its fields; the emulator leaves the distance out as well.
    let projected = try await c.select(["n"]).findNearest(
      vectorField: "emb", queryVector: [2.2, 1], limit: 1, distanceMeasure: .euclidean, distanceResultField: "d"
    ).getDocuments()
    #expect(projected.documents.first?.data().keys.sorted() == ["n"])

    // The distance field replaces a stored field of that name in the result.
    let replaced = try await c.findNearest(
      vectorField: "emb", queryVector: [2.2, 1], limit: 1, distanceMeasure: .euclidean, distanceResultField: "n"
    ).getDocuments()
    #expect(abs((replaced.documents.first?.get("n") as? Double ?? 0) - 0.2) < 1e-12)
    // The emulator takes distanceResultField as a top-level name, dots and all (production
    // documents it as a field name; the mock does as the emulator).
    let dotted = try await c.findNearest(
      vectorField: "emb", queryVector: [2.2, 1], limit: 1, distanceMeasure: .euclidean, distanceResultField: "m.d"
    ).getDocuments()
    #expect(dotted.documents.first?.fields["m.d"] != nil)
    #expect(dotted.documents.first?.fields["m"] == nil)
  }

  @Test(
    "what the server refuses about vectors, with the emulator's messages (raw values sent past the client's checks)", arguments: Backend.all
  )
  func serverVectorRules(_ backend: Backend) async throws {
    let c = backend.collection()
    func vector(_ elements: [Value], extra: [String: Value] = [:]) -> Value {
      .map(["__type__": .string("__vector__"), "value": .array(elements)].merging(extra) { a, _ in a })
    }
    let cases: [(Value, String)] = [
      (vector([.integer(1), .double(2)]), "Vector must only contain values of type 'double'"),
      (vector([]), "Cannot have a zero length vector."),
      (.map(["__type__": .string("__vector__")]), "Vector map is missing key 'value'."),
      (vector([.double(1)], extra: ["x": .integer(1)]), "Vector Value map has extraneous entries."),
      (.map(["__type__": .string("__vector__"), "value": .string("x")]), "Vector Value type must be an array."),
      (vector(Array(repeating: .double(1), count: 2049)), "Vectors must be at most 2048 dimensions."),
      (vector([.double(.nan)]), "Vector cannot contain NaN values."),
      (.array([vector([.double(1)])]), "Cannot convert a vector value in an array value."),
    ]
    for (value, message) in cases {
      let error = await #expect(throws: FirestoreError.self) { try await c.document("d").setData(["e": value]) }
      #expect(error?.code == .invalidArgument && error?.message.contains(message) == true, "\(message): \(String(describing: error))")
    }
    // Infinity is allowed; a vector may sit in a map.
    try await c.document("ok").setData(["e": VectorValue([.infinity, 1]), "m": ["e": VectorValue([1])]])
    #expect(try await c.document("ok").getDocument().get("m.e") as? VectorValue == VectorValue([1]))
  }

  @Test("bad vectors and searches fail with invalidArgument before anything is sent", arguments: Backend.all)
  func clientValidation(_ backend: Backend) async throws {
    let c = backend.collection()
    let writes: [([String: any Sendable], String)] = [
      (["e": VectorValue([])], "empty vector"),
      (["e": VectorValue([1, .nan])], "NaN at index 1"),
      (["e": VectorValue(Array(repeating: 1.0, count: 2049))], "2049 dimensions"),
      (["e": [VectorValue([1])]], "vector inside an array"),
      (["e": [["v": VectorValue([1])]] as [any Sendable]], "vector inside an array"),
    ]
    for (data, message) in writes {
      let error = await #expect(throws: FirestoreError.self) { try await c.document("d").setData(data) }
      #expect(error?.code == .invalidArgument && error?.requestPath == nil, "\(message): \(String(describing: error))")
      #expect(error?.message.contains(message) == true, "\(message): \(String(describing: error))")
    }
    let v: [Double] = [1, 2]
    let searches: [(VectorQuery, String)] = [
      (c.findNearest(vectorField: "e", queryVector: v, limit: 0, distanceMeasure: .cosine), "limit must be from 1 to 1000"),
      (c.findNearest(vectorField: "e", queryVector: v, limit: 1001, distanceMeasure: .cosine), "limit must be from 1 to 1000"),
      (c.findNearest(vectorField: "e", queryVector: [], limit: 1, distanceMeasure: .cosine), "empty vector"),
      (c.limit(to: 3).findNearest(vectorField: "e", queryVector: v, limit: 1, distanceMeasure: .cosine), "limit(to:)"),
      (c.offset(1).findNearest(vectorField: "e", queryVector: v, limit: 1, distanceMeasure: .cosine), "offset"),
      (c.order(by: "e").findNearest(vectorField: "e", queryVector: v, limit: 1, distanceMeasure: .cosine), "order(by:)"),
      (c.order(by: "e").start(at: [1]).findNearest(vectorField: "e", queryVector: v, limit: 1, distanceMeasure: .cosine), "cursors"),
      (c.findNearest(vectorField: FieldPath.documentID(), queryVector: v, limit: 1, distanceMeasure: .cosine), "document ID"),
      (c.findNearest(vectorField: "a..b", queryVector: v, limit: 1, distanceMeasure: .cosine), "a..b"),
      (
        c.findNearest(vectorField: "e", queryVector: v, limit: 1, distanceMeasure: .cosine, distanceResultField: "__name__"),
        "reserved"
      ),
      (c.findNearest(vectorField: "e", queryVector: v, limit: 1, distanceMeasure: .cosine, distanceThreshold: .nan), "NaN"),
    ]
    for (search, message) in searches {
      let error = await #expect(throws: FirestoreError.self) { try await search.getDocuments() }
      #expect(error?.code == .invalidArgument && error?.requestPath == nil, "\(message): \(String(describing: error))")
      #expect(error?.message.contains(message) == true, "\(message): \(String(describing: error))")
    }
  }
}
