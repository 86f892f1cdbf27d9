/// The Apple SDK's completion-handler forms of the query reads.
extension QueryConvertible {
  /// Runs the query (see ``getDocuments()``) and calls `completion` with the snapshot or the
  /// error on ``FirestoreSettings/dispatchQueue``.
  ///
  /// ```swift
  /// db.collection("cities").getDocuments { snapshot, error in
  ///   for document in snapshot?.documents ?? [] { print(document.documentID) }
  /// }
  /// ```
  public func getDocuments(completion: @escaping (QuerySnapshot?, (any Error)?) -> Void) {
    getDocuments(source: .default, completion: completion)
  }

  /// Runs the query where `source` says (see ``getDocuments(source:)``) and calls
  /// `completion` with the snapshot or the error.
  public func getDocuments(source: FirestoreSource, completion: @escaping (QuerySnapshot?, (any Error)?) -> Void) {
    let query = self.query
    if source == .cache {
      query.firestore.completeNow(completion) { try query.runOnCache() }
      return
    }
    query.firestore.complete(completion) { try await query.getDocuments(source: source) }
  }
}

/// The Apple SDK's completion-handler form of aggregations.
extension AggregateQuery {
  /// Computes the aggregations (see ``getAggregation(source:)``) and calls `completion` with
  /// the snapshot or the error on ``FirestoreSettings/dispatchQueue``.
  public func getAggregation(source: AggregateSource, completion: @escaping (AggregateQuerySnapshot?, (any Error)?) -> Void) {
    let aggregate = self
    query.firestore.complete(completion) { try await aggregate.getAggregation(source: source) }
  }
}
