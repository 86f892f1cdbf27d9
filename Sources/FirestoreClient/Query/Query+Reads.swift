import FirestoreWire

extension QueryConvertible {
  /// Runs the query and returns all matching documents in query order.
  ///
  /// ```swift
  /// let snapshot = try await db.collection("cities").whereField("state", isEqualTo: "CA").getDocuments()
  /// for document in snapshot.documents { print(document.documentID, document.data()) }
  /// ```
  ///
  /// - Throws: `invalidArgument` for an invalid query, before any request.
  public func getDocuments() async throws -> QuerySnapshot {
    try await getDocuments(source: .default)
  }

  /// Runs the query where `source` says.
  ///
  /// ```swift
  /// let cached = try await db.collection("users").whereField("team", isEqualTo: "ios").getDocuments(source: .cache)
  /// ```
  ///
  /// - Parameter source: ``FirestoreSource/server`` asks the server only;
  ///   ``FirestoreSource/cache`` never touches the network: it evaluates the filters,
  ///   order, cursors and limits locally over the cached documents of the collection (or
  ///   collection group), with this client's pending writes applied, and returns what
  ///   matches (possibly nothing); ``FirestoreSource/default`` asks the server and, when
  ///   it is unreachable (`unavailable` or `deadlineExceeded`), the cache. Results from
  ///   the cache have ``SnapshotMetadata/isFromCache`` set.
  /// - Throws: `invalidArgument` for an invalid query, before any request.
  public func getDocuments(source: FirestoreSource) async throws -> QuerySnapshot {
    let query = self.query
    switch source {
    case .server:
      try query.firestore.checkServerReachable("the query")
      return try await query.run(consistency: nil)
    case .cache:
      return try query.runOnCache()
    case .default:
      // With the network disabled, the cache answers at once, as in the Apple SDK.
      if query.firestore.network.mode == .disabled { return try query.runOnCache() }
      do {
        return try await query.run(consistency: nil)
      } catch let error as FirestoreError where error.meansOffline {
        return try query.runOnCache()
      }
    }
  }

  /// Runs the query against the database as it was at `readTime`.
  public func getDocuments(readTime: Timestamp) async throws -> QuerySnapshot {
    try await query.run(consistency: .readTime(readTime))
  }

  /// The matching documents as they arrive, parsed one by one, so that a query over many
  /// documents runs in bounded memory.
  ///
  /// ```swift
  /// for try await document in db.collection("logs").order(by: "at").stream() {
  ///   process(document)
  /// }
  /// ```
  ///
  /// Nothing is read ahead of the loop: while it is busy, the transfer waits. A reply that
  /// breaks after some documents is asked again for the rest, from the last document read
  /// and at its read time (see ``QueryDocumentStream``); the sequence ends with an error if
  /// the query is invalid or the stream breaks for good. A `limit(toLast:)` query is
  /// buffered (its order is reversed at the end).
  public func stream() -> QueryDocumentStream { QueryDocumentStream(query: query) }
}

extension Query {
  func runQueryCall(_ lowered: Lowered, consistency: ReadConsistency?, explain: ExplainRequestOptions? = nil) -> RESTClient.Call {
    RESTClient.Call(
      .runQuery(parent: lowered.parentPath),
      body: RunQueryRequest(structuredQuery: lowered.structuredQuery, consistency: consistency, explainOptions: explain).json)
  }

  func snapshot(_ doc: Document, readTime: Timestamp?, metadata: SnapshotMetadata = .server) throws -> QueryDocumentSnapshot {
    QueryDocumentSnapshot(reference: try firestore.reference(forName: doc.name), document: doc, readTime: readTime, metadata: metadata)
  }

  /// Runs the query and collects the results in query order.
  ///
  /// The whole reply is read before anything is returned, so a stream that breaks
  /// half-way is retried as a whole, like any idempotent read.
  func run(consistency: ReadConsistency?) async throws -> QuerySnapshot {
    let lowered = try lowered()
    var documents: [QueryDocumentSnapshot] = []
    var readTime: Timestamp?
    let elements = try await firestore.rest.unary(
      runQueryCall(lowered, consistency: consistency), RunQueryResponse.decodeArray)
    for response in elements {
      if let t = response.readTime { readTime = t }
      if let doc = response.document { documents.append(try snapshot(doc, readTime: response.readTime)) }
    }
    var pendingNames = Set<String>()
    if lowered.structuredQuery.select == nil && consistency.touchesLocalStore {
      let q = lowered.structuredQuery
      let isComplete = q.limit == nil && q.offset == nil && q.startAt == nil && q.endAt == nil
      let view = viewQuery(lowered)
      let results = documents.map(\.document)
      firestore.localStore.didRunQuery(view, results: results, isComplete: isComplete, readTime: readTime)
      // This client's writes the server has not applied yet show in the answer, as in a
      // listener: code that writes without waiting, then reads, finds what it wrote.
      if let local = firestore.localStore.withPendingWrites(view, serverResults: results) {
        pendingNames = local.pending
        let readTimes = Dictionary(documents.map { ($0.document.name, $0.readTime) }, uniquingKeysWith: { a, _ in a })
        documents = try local.documents.map { doc in
          try snapshot(
            doc, readTime: readTimes[doc.name] ?? readTime,
            metadata: SnapshotMetadata(isFromCache: false, hasPendingWrites: local.pending.contains(doc.name)))
        }
      }
    }
    if lowered.reversesResults { documents.reverse() }
    return QuerySnapshot(
      query: self, documents: documents, readTime: readTime,
      metadata: SnapshotMetadata(isFromCache: false, hasPendingWrites: !pendingNames.isEmpty))
  }

  /// The query as the local store evaluates it.
  func viewQuery(_ lowered: Lowered) -> ViewQuery {
    .query(lowered.structuredQuery, parent: parentPath.string, collectionID: collectionID, allDescendants: allDescendants)
  }

  /// Evaluates the query over the cache, without the network.
  func runOnCache() throws -> QuerySnapshot {
    try firestore.checkUsable()
    let lowered = try lowered()
    firestore.writePipeline.followCurrentUser()
    let (found, pending) = firestore.localStore.query(viewQuery(lowered))
    var documents = try found.map { doc in
      try snapshot(doc, readTime: nil, metadata: SnapshotMetadata(isFromCache: true, hasPendingWrites: pending.contains(doc.name)))
    }
    if lowered.reversesResults { documents.reverse() }
    return QuerySnapshot(
      query: self, documents: documents, readTime: nil,
      metadata: SnapshotMetadata(isFromCache: true, hasPendingWrites: !pending.isEmpty))
  }
}
