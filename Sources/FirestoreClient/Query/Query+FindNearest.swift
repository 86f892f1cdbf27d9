import FirestoreWire

extension Query {
  /// How nearest-neighbour search measures the distance between two vectors.
  public enum DistanceMeasure: Sendable, CaseIterable {
    /// Straight-line distance; smaller is closer.
    case euclidean
    /// Cosine distance (1 − the cosine of the angle between the vectors), which ignores
    /// their lengths; smaller is closer.
    case cosine
    /// The dot product; larger is closer. With vectors of length 1 it orders as cosine does.
    case dotProduct

    var wire: StructuredQuery.FindNearest.DistanceMeasure {
      switch self {
      case .euclidean: return .euclidean
      case .cosine: return .cosine
      case .dotProduct: return .dotProduct
      }
    }
  }
}

extension QueryConvertible {
  /// A nearest-neighbour (vector) search over this query's documents: the `limit`
  /// documents whose `vectorField` is closest to `queryVector`, closest first.
  ///
  /// ```swift
  /// let similar = try await db.collection("beans")
  ///   .whereField("roast", isEqualTo: "dark")
  ///   .findNearest(vectorField: "embedding", queryVector: VectorValue([0.1, 0.9, 0.3]), limit: 5,
  ///                distanceMeasure: .cosine, distanceResultField: "distance")
  ///   .getDocuments()
  /// ```
  ///
  /// Only documents whose field holds a vector of the query vector's dimension take part.
  /// Production needs a vector index on the field (the emulator and the mock do not).
  ///
  /// - Parameters:
  ///   - vectorField: the field holding each document's ``VectorValue``.
  ///   - queryVector: the vector to compare with (1 to 2,048 dimensions, no `NaN`).
  ///   - limit: how many neighbours at most, 1 to 1,000.
  ///   - distanceMeasure: how distance is measured.
  ///   - distanceResultField: a top-level field name that each result gets its distance
  ///     in (replacing a stored field of that name in the result).
  ///   - distanceThreshold: leave out documents farther than this; for
  ///     ``Query/DistanceMeasure/dotProduct``, those whose product is smaller.
  /// - Returns: the search; the problems above are thrown, before any request, by its reads.
  public func findNearest(
    vectorField: some FieldPathConvertible, queryVector: VectorValue, limit: Int, distanceMeasure: Query.DistanceMeasure,
    distanceResultField: String? = nil, distanceThreshold: Double? = nil
  ) -> VectorQuery {
    VectorQuery(
      query: query, vectorField: vectorField, queryVector: queryVector, limit: limit, distanceMeasure: distanceMeasure,
      distanceResultField: distanceResultField, distanceThreshold: distanceThreshold)
  }

  /// A nearest-neighbour search for a vector given as its elements (see
  /// ``findNearest(vectorField:queryVector:limit:distanceMeasure:distanceResultField:distanceThreshold:)-(_,VectorValue,_,_,_,_)``).
  public func findNearest(
    vectorField: some FieldPathConvertible, queryVector: [Double], limit: Int, distanceMeasure: Query.DistanceMeasure,
    distanceResultField: String? = nil, distanceThreshold: Double? = nil
  ) -> VectorQuery {
    findNearest(
      vectorField: vectorField, queryVector: VectorValue(queryVector), limit: limit, distanceMeasure: distanceMeasure,
      distanceResultField: distanceResultField, distanceThreshold: distanceThreshold)
  }
}
