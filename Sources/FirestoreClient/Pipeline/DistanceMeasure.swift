/// How `findNearest` measures the distance between two vectors.
public struct DistanceMeasure: Sendable, Equatable, Hashable {
  /// The name the backend reads.
  let rawValue: String

  /// Euclidean distance.
  public static let euclidean = DistanceMeasure(rawValue: "euclidean")
  /// Cosine distance.
  public static let cosine = DistanceMeasure(rawValue: "cosine")
  /// The dot product (larger is nearer).
  public static let dotProduct = DistanceMeasure(rawValue: "dot_product")
}
