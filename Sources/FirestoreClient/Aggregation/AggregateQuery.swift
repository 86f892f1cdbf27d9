import FirestoreWire

/// A query's aggregations, computed by the server without sending the documents.
///
/// Two are equal, as in the Apple SDK, when their queries are and they ask for the same
/// aggregations in the same order.
public struct AggregateQuery: Sendable, Hashable {
  /// The most aggregations Firestore computes in one query (the emulator fails with an
  /// opaque `UNKNOWN` beyond it).
  static let maximumAggregations = 5

  /// The query aggregated.
  public let query: Query
  /// The aggregations computed.
  public let aggregations: [AggregateField]

  /// Computes the aggregations now.
  ///
  /// Throws `invalidArgument`, sending nothing, for an invalid query, an empty list, more
  /// than 5 different aggregations, or a `sum`/`average` of an invalid field.
  ///
  /// ```swift
  /// let n = try await db.collection("cities").count.getAggregation().count
  /// ```
  public func getAggregation() async throws -> AggregateQuerySnapshot {
    try await run(consistency: nil)
  }

  /// Computes the aggregations from `source`, as the Apple SDK spells it (the server is
  /// the only source; see ``AggregateSource``).
  ///
  /// ```swift
  /// let count = try await db.collection("cities").count.getAggregation(source: .server).count
  /// ```
  ///
  /// - Throws: as ``getAggregation()``; `unavailable` when the server cannot be reached or
  ///   the network is disabled (``Firestore/disableNetwork()``).
  public func getAggregation(source: AggregateSource) async throws -> AggregateQuerySnapshot {
    switch source {
    case .server: return try await run(consistency: nil)
    }
  }

  /// Computes the aggregations over the database as it was at `readTime`.
  public func getAggregation(readTime: Timestamp) async throws -> AggregateQuerySnapshot {
    try await run(consistency: .readTime(readTime))
  }

  func run(consistency: ReadConsistency?) async throws -> AggregateQuerySnapshot {
    try query.firestore.checkServerReachable("the aggregation")
    let (call, unique) = try request(consistency: consistency, explain: nil)
    let elements = try await send(call)
    guard let snapshot = try snapshot(elements, unique) else {
      throw FirestoreError(.internal, "the runAggregationQuery reply has no result")
    }
    return snapshot
  }

  /// Asks Firestore how it computes the aggregations: the indexes it uses and, with
  /// ``ExplainOptions/analyze``, the results with what computing them cost.
  ///
  /// ```swift
  /// let explained = try await db.collection("cities").count.explain(options: ExplainOptions(analyze: true))
  /// print(explained.snapshot?.count ?? 0, explained.metrics.executionStats?.readOperations ?? 0)
  /// ```
  ///
  /// - Throws: as ``getAggregation()``; `unimplemented` when the server computes the
  ///   aggregations without explaining them (the Firestore emulator does).
  public func explain(options: ExplainOptions = ExplainOptions()) async throws -> ExplainResults<AggregateQuerySnapshot> {
    let (call, unique) = try request(consistency: nil, explain: ExplainRequestOptions(analyze: options.analyze))
    let elements = try await send(call)
    let metrics = try ExplainMetrics.from(elements, firestore: query.firestore)
    return ExplainResults(metrics: metrics, snapshot: options.analyze ? try snapshot(elements, unique) : nil)
  }

  /// Validates the aggregations and builds the request; also returns the distinct
  /// aggregations, whose positions name their aliases.
  private func request(consistency: ReadConsistency?, explain: ExplainRequestOptions?) throws -> (RESTClient.Call, [AggregateField]) {
    if aggregations.isEmpty { throw FirestoreError(.invalidArgument, "aggregate(_:) needs at least one aggregation") }
    if let bad = aggregations.first(where: { $0.error != nil }), let message = bad.error {
      throw FirestoreError(.invalidArgument, message)
    }
    var lowered = try query.lowered(forAggregation: true)
    // The SDKs aggregate without the implicit document-key ordering; it changes nothing but
    // for `limit(toLast:)`, whose last documents are those of the caller's orderings turned
    // (the first ones when there are none: as many). A cursor keeps every ordering, as the
    // server clients send it: its values name them all, and the server refuses a cursor
    // longer than the orderings.
    if lowered.structuredQuery.startAt == nil && lowered.structuredQuery.endAt == nil {
      let explicit = lowered.reversesResults ? query.orders.count : lowered.structuredQuery.orderBy.count
      lowered.structuredQuery.orderBy = query.orders.isEmpty ? [] : Array(lowered.structuredQuery.orderBy.prefix(explicit))
    }
    var unique: [AggregateField] = []
    for field in aggregations where !unique.contains(field) { unique.append(field) }
    if unique.count > Self.maximumAggregations {
      throw FirestoreError(
        .invalidArgument, "aggregate(_:) has \(unique.count) different aggregations; Firestore allows at most \(Self.maximumAggregations)")
    }
    let wire = unique.enumerated().map { Aggregation(alias: "aggregate_\($0.offset)", kind: $0.element.wire) }
    let request = RunAggregationQueryRequest(
      structuredQuery: lowered.structuredQuery, aggregations: wire, consistency: consistency, explainOptions: explain)
    return (.init(.runAggregationQuery(parent: lowered.parentPath), body: request.json), unique)
  }

  private func send(_ call: RESTClient.Call) async throws -> [JSONValue] {
    guard case .array(let elements) = try await query.firestore.rest.unary(call) else {
      throw FirestoreError(.internal, "runAggregationQuery reply is not a JSON array")
    }
    return elements
  }

  /// The results in a reply's elements, or `nil` when it carries none (a plan only).
  private func snapshot(_ elements: [JSONValue], _ unique: [AggregateField]) throws -> AggregateQuerySnapshot? {
    var values: [AggregateField: FirestoreWire.Value] = [:]
    var readTime: Timestamp?
    var sawResult = false
    for element in elements {
      let response = try query.firestore.decode("aggregation result") { try RunAggregationQueryResponse(json: element) }
      readTime = response.readTime ?? readTime
      guard let fields = response.aggregateFields else { continue }
      sawResult = true
      for (i, field) in unique.enumerated() {
        if let v = fields["aggregate_\(i)"] { values[field] = v }
      }
    }
    guard sawResult else { return nil }
    for field in unique where values[field] == nil {
      throw FirestoreError(.internal, "aggregation result lacks a value for \(field.kind)")
    }
    return AggregateQuerySnapshot(query: self, values: values, readTime: readTime)
  }
}

extension QueryConvertible {
  /// The number of matching documents, computed by the server.
  public var count: AggregateQuery { AggregateQuery(query: query, aggregations: [.count()]) }

  /// Several aggregations over the matching documents, in one request.
  public func aggregate(_ fields: [AggregateField]) -> AggregateQuery { AggregateQuery(query: query, aggregations: fields) }
}
