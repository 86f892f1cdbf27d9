import FirestoreWire

/// A nearest-neighbour search: the documents of a query whose vector field is closest to
/// a query vector, closest first. Make one with
/// ``QueryConvertible/findNearest(vectorField:queryVector:limit:distanceMeasure:distanceResultField:distanceThreshold:)-(_,VectorValue,_,_,_,_)``.
///
/// The base query's filters choose the candidates; the search orders them by distance, so
/// the base query may not have its own ordering, cursors, offset or limit.
public final class VectorQuery: Sendable {
  /// The query whose documents are searched.
  public let query: Query
  /// The field holding each document's vector.
  let vectorField: any FieldPathConvertible
  /// The vector searched for.
  public let queryVector: VectorValue
  /// How many neighbours are returned at most.
  public let limit: Int
  /// How distance is measured.
  public let distanceMeasure: Query.DistanceMeasure
  /// The field each result gets its distance in, if any.
  public let distanceResultField: String?
  /// The farthest distance returned (for ``Query/DistanceMeasure/dotProduct``, the
  /// smallest product), if any.
  public let distanceThreshold: Double?

  init(
    query: Query, vectorField: any FieldPathConvertible, queryVector: VectorValue, limit: Int, distanceMeasure: Query.DistanceMeasure,
    distanceResultField: String?, distanceThreshold: Double?
  ) {
    self.query = query
    self.vectorField = vectorField
    self.queryVector = queryVector
    self.limit = limit
    self.distanceMeasure = distanceMeasure
    self.distanceResultField = distanceResultField
    self.distanceThreshold = distanceThreshold
  }

  /// The most neighbours one search returns.
  static let maximumLimit = 1000

  /// Runs the search on the server and returns the neighbours, closest first.
  ///
  /// - Throws: `invalidArgument`, sending nothing, for an invalid base query or search
  ///   (see ``QueryConvertible/findNearest(vectorField:queryVector:limit:distanceMeasure:distanceResultField:distanceThreshold:)-(_,VectorValue,_,_,_,_)``).
  public func getDocuments() async throws -> QuerySnapshot {
    let lowered = try self.lowered()
    let elements = try await query.firestore.rest.unary(query.runQueryCall(lowered, consistency: nil), RunQueryResponse.decodeArray)
    var documents: [QueryDocumentSnapshot] = []
    var readTime: Timestamp?
    for response in elements {
      readTime = response.readTime ?? readTime
      if let document = response.document { documents.append(try query.snapshot(document, readTime: response.readTime)) }
    }
    // Not stored in the cache: a result carries its distance in `distanceResultField`.
    return QuerySnapshot(query: query, documents: documents, readTime: readTime, isVectorSearch: true)
  }

  /// Asks Firestore how it runs the search, and with ``ExplainOptions/analyze`` also
  /// runs it (see ``QueryConvertible/explain(options:)``).
  public func explain(options: ExplainOptions = ExplainOptions()) async throws -> ExplainResults<QuerySnapshot> {
    try await query.explain(lowered(), options: options)
  }

  /// The base query lowered with the search added; throws `invalidArgument` naming what
  /// Firestore would refuse.
  func lowered() throws(FirestoreError) -> Query.Lowered {
    var lowered = try query.lowered()
    let what = "findNearest"
    if query.limitValue != nil {
      throw .invalidArgument("\(what) cannot be combined with limit(to:) or limit(toLast:); its own limit says how many neighbours")
    }
    if query.offsetValue != nil { throw .invalidArgument("\(what) cannot be combined with offset(_:)") }
    if query.startBound != nil || query.endBound != nil { throw .invalidArgument("\(what) cannot be combined with cursors") }
    if !query.orders.isEmpty {
      throw .invalidArgument("\(what) orders results by distance; remove order(by:) from the base query (Firestore would ignore it)")
    }
    let field = try vectorField.fieldPath()
    if field.isDocumentID { throw .invalidArgument("\(what) needs a vector field, not the document ID") }
    guard (1...Self.maximumLimit).contains(limit) else {
      throw .invalidArgument("\(what) limit must be from 1 to \(Self.maximumLimit), got \(limit)")
    }
    let vector = try queryVector.wireValue("\(what) queryVector")
    if let name = distanceResultField {
      if name.isEmpty { throw .invalidArgument("\(what) distanceResultField must not be empty") }
      if FieldPath.isReserved(name) {
        throw .invalidArgument("\(what) distanceResultField \"\(name)\" is reserved (names matching __.*__ are not allowed)")
      }
    }
    if let threshold = distanceThreshold, threshold.isNaN {
      throw .invalidArgument("\(what) distanceThreshold must be a number, not NaN (no distance passes it)")
    }
    // Results come in distance order; the implicit document-key ordering would be superseded.
    lowered.structuredQuery.orderBy = []
    lowered.structuredQuery.findNearest = StructuredQuery.FindNearest(
      vectorField: field.canonicalString, queryVector: vector, distanceMeasure: distanceMeasure.wire, limit: Int32(limit),
      distanceResultField: distanceResultField, distanceThreshold: distanceThreshold)
    return lowered
  }
}
