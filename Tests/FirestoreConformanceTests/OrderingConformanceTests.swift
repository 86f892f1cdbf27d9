import FirestoreTestSupport
import FirestoreWire
import Foundation
import Testing

@testable import FirestoreClient

/// Mixed-type data, where fakes usually get Firestore's ordering wrong.
@Suite("Conformance: mixed-type ordering")
struct OrderingConformanceTests {
  /// Documents named so that their names sort in the expected Firestore order of `v`.
  private func seed(_ backend: Backend, _ hint: String = #function) async throws -> CollectionReference {
    let c = backend.collection(hint)
    let values: [(String, any Sendable)] = [
      ("01-null", NSNull()),
      ("02-false", false),
      ("03-true", true),
      ("04-nan", Double.nan),
      ("05-neginf", -Double.infinity),
      ("06-minint", Int64.min),
      ("07-minus1", -1),
      ("08-zero", 0),
      ("09-half", 0.5),
      ("10-one", 1),
      ("11-onedouble", 1.0),
      ("12-2p53", 9_007_199_254_740_992.0),
      ("13-2p53plus1", Int64(9_007_199_254_740_993)),
      ("14-maxint", Int64.max),
      ("15-inf", Double.infinity),
      ("16-time", Timestamp(seconds: 0, nanoseconds: 1)),
      ("17-emptystring", ""),
      ("18-A", "A"),
      ("19-a", "a"),
      ("20-private-use", "\u{E000}"),
      ("21-astral", "😀"),
      ("22-bytes", Data([0x00])),
      ("23-bytes-ff", Data([0xFF])),
      ("24-ref", backend.db.document("a/b")),
      ("25-ref-deeper", backend.db.document("a/b/c/d")),
      ("26-geo", GeoPoint(latitude: -10, longitude: 100)),
      ("27-geo-north", GeoPoint(latitude: 10, longitude: -100)),
      ("28-empty-array", [any Sendable]()),
      ("29-array", [1, 2] as [any Sendable]),
      ("30-array-longer", [1, 2, 0] as [any Sendable]),
      ("31-empty-map", [String: any Sendable]()),
      ("32-map", ["a": 1] as [String: any Sendable]),
    ]
    let batch = backend.db.batch()
    for (id, value) in values { batch.setData(["v": value], forDocument: c.document(id)) }
    batch.setData(["other": 1], forDocument: c.document("00-missing-field"))
    try await batch.commit()
    return c
  }

  private func ids(_ q: some QueryConvertible) async throws -> [String] {
    try await q.getDocuments().documents.map(\.documentID)
  }

  @Test("order by a field of every type follows Firestore's cross-type order", arguments: Backend.all)
  func crossTypeOrder(_ backend: Backend) async throws {
    let c = try await seed(backend)
    let ascending = try await ids(c.order(by: "v"))
    // Equal values (1 and 1.0) tie and fall back to document-name order; a document
    // without the field is not in an ordered result.
    #expect(ascending == ascending.sorted())
    #expect(ascending.count == 32)
    #expect(!ascending.contains("00-missing-field"))
    let descending = try await ids(c.order(by: "v", descending: true))
    #expect(descending.first == "32-map" && descending.last == "01-null")
  }

  @Test("comparisons stay within a type class; numbers compare across integer and double", arguments: Backend.all)
  func rangeFilters(_ backend: Backend) async throws {
    let c = try await seed(backend)
    #expect(
      try await ids(c.whereField("v", isGreaterThan: 0).order(by: "v")) == [
        "09-half", "10-one", "11-onedouble", "12-2p53", "13-2p53plus1", "14-maxint", "15-inf",
      ])
    #expect(try await ids(c.whereField("v", isLessThan: "b")) == ["17-emptystring", "18-A", "19-a"])
    #expect(try await ids(c.whereField("v", isEqualTo: 1)) == ["10-one", "11-onedouble"])
    #expect(try await ids(c.whereField("v", isEqualTo: 9_007_199_254_740_992.0)) == ["12-2p53"])
    #expect(try await ids(c.whereField("v", in: [1, "a", false])) == ["02-false", "10-one", "11-onedouble", "19-a"])
    #expect(try await ids(c.whereField("v", isGreaterThanOrEqualTo: [1, 2] as [any Sendable])) == ["29-array", "30-array-longer"])
    #expect(try await ids(c.whereField("v", isLessThan: Data([0x80]))) == ["22-bytes"])
  }

  @Test("cursors across types, and document-key order of awkward IDs", arguments: Backend.all)
  func cursorsAndKeys(_ backend: Backend) async throws {
    let c = try await seed(backend)
    #expect(try await ids(c.order(by: "v").start(after: ["a"]).end(at: [Data([0x00])])) == ["20-private-use", "21-astral", "22-bytes"])
    let keys = backend.collection()
    let names = ["a", "a b", "a-b", "B", "aa", "_", "é", "Z"]
    let batch = backend.db.batch()
    for name in names { batch.setData(["kind": "k"], forDocument: keys.document(name)) }
    try await batch.commit()
    let expected = names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    #expect(try await ids(keys.order(by: FieldPath.documentID())) == expected)
    // The emulator refuses a bare descending key scan; an equality filter makes it a plain query.
    #expect(
      try await ids(keys.whereField("kind", isEqualTo: "k").order(by: FieldPath.documentID(), descending: true)) == expected.reversed())
  }
}
