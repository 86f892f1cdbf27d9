extension StructuredQuery {
  /// A nearest-neighbour (vector) search (`StructuredQuery.FindNearest`): the documents
  /// whose vector field is closest to a query vector, closest first. Its order supersedes
  /// `orderBy`; the query's filters select the candidates first.
  public struct FindNearest: Sendable, Equatable {
    /// How distance between vectors is measured.
    public enum DistanceMeasure: String, Sendable, CaseIterable {
      /// Not set; the server refuses it.
      case unspecified = "DISTANCE_MEASURE_UNSPECIFIED"
      /// Straight-line distance: smaller is closer.
      case euclidean = "EUCLIDEAN"
      /// One minus the cosine of the angle between the vectors: smaller is closer.
      case cosine = "COSINE"
      /// The dot product: larger is closer.
      case dotProduct = "DOT_PRODUCT"
    }

    /// The canonical path of the field holding each document's vector.
    public var vectorField: String
    /// The vector searched for (a vector value, see ``Value/vector(_:)``).
    public var queryVector: Value
    /// How distance is measured.
    public var distanceMeasure: DistanceMeasure
    /// How many neighbours to return (1…1000); `nil` is refused by the server.
    public var limit: Int32?
    /// The field each result gets its distance in, if any.
    public var distanceResultField: String?
    /// Leaves out documents farther than this (for ``DistanceMeasure/dotProduct``, those
    /// whose product is smaller).
    public var distanceThreshold: Double?

    /// Creates a search.
    public init(
      vectorField: String, queryVector: Value, distanceMeasure: DistanceMeasure, limit: Int32?, distanceResultField: String? = nil,
      distanceThreshold: Double? = nil
    ) {
      self.vectorField = vectorField
      self.queryVector = queryVector
      self.distanceMeasure = distanceMeasure
      self.limit = limit
      self.distanceResultField = distanceResultField
      self.distanceThreshold = distanceThreshold
    }

    /// The REST JSON form.
    public var json: JSONValue {
      var m: [(String, JSONValue)] = [
        ("vectorField", StructuredQuery.fieldReference(vectorField)), ("queryVector", queryVector.json),
        ("distanceMeasure", .string(distanceMeasure.rawValue)),
      ]
      // Int32Value and DoubleValue are bare JSON numbers (the wrapper object form is refused).
      m.append("limit", limit.map { .number(String($0)) })
      m.append("distanceResultField", distanceResultField.map(JSONValue.string))
      m.append("distanceThreshold", distanceThreshold.map(Value.json(double:)))
      return .object(m)
    }

    /// Reads a REST `FindNearest`.
    public init(json: JSONValue) throws {
      try json.requireObject("findNearest")
      guard let field = json["vectorField"] else { throw WireFormatError("findNearest lacks \"vectorField\"") }
      vectorField = try StructuredQuery.fieldPath(from: field)
      guard let vector = json["queryVector"] else { throw WireFormatError("findNearest lacks \"queryVector\"") }
      queryVector = try Value(json: vector)
      let measure = try json.optionalString("distanceMeasure") ?? DistanceMeasure.unspecified.rawValue
      guard let parsed = DistanceMeasure(rawValue: measure) else { throw WireFormatError("unknown distanceMeasure \"\(measure)\"") }
      distanceMeasure = parsed
      if let limit = json["limit"] {
        guard case .number(let text) = limit, let value = Int32(text) else {
          throw WireFormatError("findNearest.limit must be a 32-bit integer")
        }
        self.limit = value
      }
      distanceResultField = try json.optionalString("distanceResultField")
      distanceThreshold = try json["distanceThreshold"].map { try Value.double(from: $0, member: "distanceThreshold") }
    }
  }
}
