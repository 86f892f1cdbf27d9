import FirestoreWire
import Foundation

extension QueryEvaluator {
  /// Runs a nearest-neighbour search (`findNearest`) over candidates, as the emulator does
  /// (all verified):
  ///
  /// * the query's filter selects the candidates first; its `orderBy` is superseded;
  /// * only documents whose vector field holds a vector of the query vector's dimension
  ///   take part (a missing field, another kind of value or another dimension leaves the
  ///   document out);
  /// * distances: Euclidean, cosine distance (1 − cosine similarity; `NaN` for a zero
  ///   vector) and dot product; results are sorted closest first (ascending, descending
  ///   for the dot product), `NaN` distances last;
  /// * a threshold keeps distances `<=` it (`>=` for the dot product), so a `NaN` distance
  ///   never passes one;
  /// * `limit` results at most; the distance goes into `distanceResultField` (a top-level
  ///   field name, replacing a field of that name) before the projection applies.
  ///
  /// Documents at the same distance come in document-name order here; Firestore documents
  /// that their order is then not guaranteed.
  static func nearest(_ query: StructuredQuery, _ search: StructuredQuery.FindNearest, over candidates: [Document]) -> [Document] {
    guard let target = search.queryVector.vectorDoubles else { return [] }
    let path = segments(search.vectorField)
    var rows: [(document: Document, distance: Double)] = []
    for document in candidates {
      if let filter = query.filter, !matches(filter, document) { continue }
      guard let vector = value(at: path, in: document)?.vectorDoubles, vector.count == target.count else { continue }
      let distance = Self.distance(vector, target, search.distanceMeasure)
      if let threshold = search.distanceThreshold {
        let passes = search.distanceMeasure == .dotProduct ? distance >= threshold : distance <= threshold
        if !passes { continue }
      }
      rows.append((document, distance))
    }
    let closerIsLarger = search.distanceMeasure == .dotProduct
    rows.sort { a, b in
      if a.distance.isNaN || b.distance.isNaN {
        if a.distance.isNaN != b.distance.isNaN { return b.distance.isNaN }
      } else if a.distance != b.distance {
        return closerIsLarger ? a.distance > b.distance : a.distance < b.distance
      }
      return ValueOrdering.compareResourceNames(a.document.name, b.document.name) < 0
    }
    var results = rows.prefix(Int(max(search.limit ?? 0, 0))).map { row in
      guard let field = search.distanceResultField, !field.isEmpty else { return row.document }
      var document = row.document
      document.fields[field] = .double(row.distance)
      return document
    }
    if let select = query.select { results = results.map { project($0, onto: select) } }
    return results
  }

  /// The distance between two vectors of equal length under `measure`.
  public static func distance(_ a: [Double], _ b: [Double], _ measure: StructuredQuery.FindNearest.DistanceMeasure) -> Double {
    switch measure {
    case .euclidean:
      var sum = 0.0
      for (x, y) in zip(a, b) { sum += (x - y) * (x - y) }
      return sum.squareRoot()
    case .dotProduct:
      var sum = 0.0
      for (x, y) in zip(a, b) { sum += x * y }
      return sum
    case .cosine:
      var dot = 0.0
      var normA = 0.0
      var normB = 0.0
      for (x, y) in zip(a, b) {
        dot += x * y
        normA += x * x
        normB += y * y
      }
      return 1 - dot / (normA.squareRoot() * normB.squareRoot())
    case .unspecified:
      return .nan
    }
  }
}
