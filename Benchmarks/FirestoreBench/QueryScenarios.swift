import FirestoreClient

/// The query scenarios: queries of the bench-peer dataset, as `bench_python.py` runs them
/// (`stream()` then `to_dict()` there; `getDocuments()` then `data()` here).
enum QueryScenarios {
  /// `category == tech`, newest first: the 400 articles of the first category.
  static func techQuery(_ db: Firestore) -> Query {
    db.collection("articles").whereField("category", isEqualTo: PeerDataset.category).order(by: "publishedAt", descending: true)
  }

  /// `make_rest_bodies.py`'s `q_full.json`: the REST body of ``techQuery(_:)``.
  static let techQueryBody =
    #"{"structuredQuery":{"from":[{"collectionId":"articles"}],"where":{"fieldFilter":{"field":{"fieldPath":"category"},"op":"EQUAL","value":{"stringValue":"tech"}}},"orderBy":[{"field":{"fieldPath":"publishedAt"},"direction":"DESCENDING"}]}}"#

  /// One run of query-full: the 400 documents, each turned into a dictionary.
  static func fullQuery(_ db: Firestore) async throws {
    let rows = try await techQuery(db).getDocuments().documents.map { $0.data() }
    try PeerDataset.expect(rows.count, 400, "query-full documents")
  }

  /// query-full: the full query, 400 documents, each turned into a dictionary; and `query-full.transport`,
  /// its `:runQuery` through the transport alone.
  static func queryFull(_ options: BenchOptions) async throws -> [BenchResult] {
    [
      try await EmulatorScenario.run(
        "query-full", "query category==tech order publishedAt desc, 400 full docs -> data()", options, countAtScaleOne: 30, warmup: 3
      ) { try await fullQuery($0) },
      try await TransportProbe.run(
        "query-full.transport", "query-full's :runQuery through CurlTransport alone (body read, not parsed)", options, countAtScaleOne: 30,
        warmup: 3,
        requests: [("POST", ":runQuery", techQueryBody)]),
    ]
  }

  /// query-ids: the same query with an ID-only projection (`select(__name__)`), 400 IDs.
  static func queryIDs(_ options: BenchOptions) async throws -> [BenchResult] {
    [
      try await EmulatorScenario.run("query-ids", "same query, selectDocumentIDs() -> 400 ids", options, countAtScaleOne: 50, warmup: 3) {
        db in
        let ids = try await techQuery(db).selectDocumentIDs().getDocuments().documents.map(\.documentID)
        try PeerDataset.expect(ids.count, 400, "query-ids IDs")
      }
    ]
  }

  /// collection-ids: the whole collection, ID-only, 2000 IDs.
  static func collectionIDs(_ options: BenchOptions) async throws -> [BenchResult] {
    [
      try await EmulatorScenario.run(
        "collection-ids", "whole collection selectDocumentIDs() -> 2000 ids", options, countAtScaleOne: 30, warmup: 3
      ) {
        db in
        let ids = try await db.collection("articles").selectDocumentIDs().getDocuments().documents.map(\.documentID)
        try PeerDataset.expect(ids.count, 2000, "collection-ids IDs")
      }
    ]
  }

  /// collection-full: the whole collection with every field, 2000 documents (5.8 MB on the wire): the
  /// network counterpart of `decode`, and of Python's `cpu2000`.
  static func collectionFull(_ options: BenchOptions) async throws -> [BenchResult] {
    [
      try await EmulatorScenario.run(
        "collection-full", "whole collection, 2000 full docs -> data()", options, countAtScaleOne: 10, warmup: 2
      ) {
        db in
        let rows = try await db.collection("articles").getDocuments().documents.map { $0.data() }
        try PeerDataset.expect(rows.count, 2000, "collection-full documents")
      }
    ]
  }
}
