import FirestoreWire

/// A vector embedding: Firestore's vector value, which nearest-neighbour search
/// (``QueryConvertible/findNearest(vectorField:queryVector:limit:distanceMeasure:distanceResultField:distanceThreshold:)-(_,VectorValue,_,_,_,_)``) compares.
///
/// Write one as a field value; it reads back as a `VectorValue`, also through
/// `Codable` (a `VectorValue` property encodes and decodes as a vector).
///
/// ```swift
/// try await db.collection("beans").document("kahawa").setData([
///   "name": "Kahawa",
///   "embedding": FieldValue.vector([0.12, 0.98, 0.33]),
/// ])
/// let embedding = try await db.document("beans/kahawa").getDocument().get("embedding") as? VectorValue
/// ```
///
/// Firestore stores 1 to 2,048 dimensions, none `NaN`, and not inside an array; a write or
/// query with another vector fails with `invalidArgument` before it is sent.
public struct VectorValue: Sendable, Hashable, CustomStringConvertible {
  /// The most dimensions Firestore stores.
  public static let maximumDimensions = 2048

  /// The vector's elements.
  public let array: [Double]

  /// A vector of these elements.
  public init(_ array: [Double]) {
    self.array = array
  }

  /// A vector of these elements, each converted exactly to a `Double`.
  @_disfavoredOverload
  public init(_ array: [Float]) {
    self.array = array.map(Double.init)
  }

  /// `VectorValue([1.0, 2.0])`.
  public var description: String { "VectorValue(\(array))" }

  /// The wire value, or the reason Firestore would refuse it (`what` names the place).
  func wireValue(_ what: String) throws(FirestoreError) -> Value {
    if array.isEmpty { throw .invalidArgument("\(what) is an empty vector; a vector needs at least one dimension") }
    if array.count > Self.maximumDimensions {
      throw .invalidArgument("\(what) is a vector of \(array.count) dimensions; Firestore allows at most \(Self.maximumDimensions)")
    }
    if let index = array.firstIndex(where: \.isNaN) { throw .invalidArgument("\(what) is a vector with NaN at index \(index)") }
    return .vector(array)
  }
}

extension FieldValue {
  /// A vector value of these elements (the Apple SDK's spelling of `VectorValue(array)`).
  public static func vector(_ array: [Double]) -> VectorValue { VectorValue(array) }

  /// A vector value of these elements, each converted to a `Double`.
  @_disfavoredOverload
  public static func vector(_ array: [Float]) -> VectorValue { VectorValue(array) }
}
