import FirestoreWire

extension QueryConvertible {
  /// Asks Firestore how it runs the query: the indexes it uses and, with
  /// ``ExplainOptions/analyze``, the results with what running it cost (reads, results,
  /// time).
  ///
  /// ```swift
  /// let explained = try await db.collection("cities").whereField("state", isEqualTo: "CA")
  ///   .explain(options: ExplainOptions(analyze: true))
  /// print(explained.metrics.planSummary.indexesUsed)
  /// print(explained.metrics.executionStats?.readOperations ?? 0, explained.snapshot?.count ?? 0)
  /// ```
  ///
  /// - Throws: `invalidArgument` for an invalid query, before any request; `unimplemented`
  ///   when the server runs the query without explaining it (the Firestore emulator does).
  public func explain(options: ExplainOptions = ExplainOptions()) async throws -> ExplainResults<QuerySnapshot> {
    let query = self.query
    return try await query.explain(query.lowered(), options: options)
  }
}

extension Query {
  /// Runs a lowered query with `explainOptions` and reads the explanation and, when it ran,
  /// the results (never stored in the cache: a vector search's results carry its distances).
  func explain(_ lowered: Lowered, options: ExplainOptions) async throws -> ExplainResults<QuerySnapshot> {
    let call = runQueryCall(lowered, consistency: nil, explain: ExplainRequestOptions(analyze: options.analyze))
    guard case .array(let elements) = try await firestore.rest.unary(call) else {
      throw FirestoreError(.internal, "the runQuery reply is not a JSON array")
    }
    let metrics = try ExplainMetrics.from(elements, firestore: firestore)
    guard options.analyze else { return ExplainResults(metrics: metrics, snapshot: nil) }
    var documents: [QueryDocumentSnapshot] = []
    var readTime: Timestamp?
    for element in elements {
      let response = try firestore.decode("runQuery element") { try RunQueryResponse(json: element) }
      readTime = response.readTime ?? readTime
      if let document = response.document { documents.append(try snapshot(document, readTime: response.readTime)) }
    }
    if lowered.reversesResults { documents.reverse() }
    let isVectorSearch = lowered.structuredQuery.findNearest != nil
    return ExplainResults(
      metrics: metrics, snapshot: QuerySnapshot(query: self, documents: documents, readTime: readTime, isVectorSearch: isVectorSearch))
  }
}
