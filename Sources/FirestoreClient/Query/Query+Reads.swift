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
    try await query.run(consistency: nil)
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
  /// The sequence ends with an error if the query is invalid or the stream breaks; a
  /// `limit(toLast:)` query is buffered (its order is reversed at the end).
  public func stream() -> AsyncThrowingStream<QueryDocumentSnapshot, any Error> {
    let query = self.query
    return AsyncThrowingStream { continuation in
      let task = Task {
        do {
          let lowered = try query.lowered()
          if lowered.reversesResults {
            for document in try await query.run(consistency: nil).documents { continuation.yield(document) }
          } else {
            for try await element in query.firestore.rest.streamArray(query.runQueryCall(lowered, consistency: nil)) {
              let response = try query.firestore.decode("runQuery element") { try RunQueryResponse(json: element) }
              if let doc = response.document { continuation.yield(try query.snapshot(doc, readTime: response.readTime)) }
            }
          }
          continuation.finish()
        } catch {
          continuation.finish(throwing: error)
        }
      }
      continuation.onTermination = { _ in task.cancel() }
    }
  }
}

extension Query {
  func runQueryCall(_ lowered: Lowered, consistency: ReadConsistency?) -> RESTClient.Call {
    RESTClient.Call(
      method: "POST", path: lowered.parentPath + ":runQuery",
      body: RunQueryRequest(structuredQuery: lowered.structuredQuery, consistency: consistency).json, idempotent: true)
  }

  func snapshot(_ doc: Document, readTime: Timestamp?) throws -> QueryDocumentSnapshot {
    QueryDocumentSnapshot(reference: try firestore.reference(forName: doc.name), document: doc, readTime: readTime)
  }

  /// Runs the query and collects the results in query order.
  ///
  /// The whole reply is read before anything is returned, so a stream that breaks
  /// half-way is retried as a whole, like any idempotent read.
  func run(consistency: ReadConsistency?) async throws -> QuerySnapshot {
    let lowered = try lowered()
    var documents: [QueryDocumentSnapshot] = []
    var readTime: Timestamp?
    let reply = try await firestore.rest.unary(runQueryCall(lowered, consistency: consistency))
    guard case .array(let elements) = reply else { throw FirestoreError(.internal, "runQuery reply is not a JSON array") }
    for element in elements {
      let response = try firestore.decode("runQuery element") { try RunQueryResponse(json: element) }
      if let t = response.readTime { readTime = t }
      if let doc = response.document { documents.append(try snapshot(doc, readTime: response.readTime)) }
    }
    if lowered.reversesResults { documents.reverse() }
    return QuerySnapshot(query: self, documents: documents, readTime: readTime)
  }
}
