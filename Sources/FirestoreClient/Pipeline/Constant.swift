import FirestoreWire
import Foundation

/// A fixed value in a pipeline: a number, string, boolean, bytes, time, geo point,
/// document reference, vector, or null (``nil``).
///
/// ```swift
/// Field("genre").equal(Constant("Fantasy"))
/// ```
public struct Constant: Expression, PipelineEncodable {
  /// The value, converted when the request is built (a reference needs its database).
  let value: any Sendable

  /// An integer.
  public init(_ value: Int) { self.value = value }
  /// A double.
  public init(_ value: Double) { self.value = value }
  /// A string.
  public init(_ value: String) { self.value = value }
  /// A boolean.
  public init(_ value: Bool) { self.value = value }
  /// Bytes.
  public init(_ value: Data) { self.value = value }
  /// A geo point.
  public init(_ value: GeoPoint) { self.value = value }
  /// A timestamp.
  public init(_ value: Timestamp) { self.value = value }
  /// A timestamp, from a date.
  public init(_ value: Date) { self.value = value }
  /// A reference to a document of the same database.
  public init(_ value: DocumentReference) { self.value = value }
  /// A vector.
  public init(_ value: VectorValue) { self.value = value }
  /// An array value, sent as one constant (not as an `array(…)` call, whose elements
  /// may be expressions), as the Python client's `Constant.of([…])` is.
  public init(_ value: [(any Sendable)?]) { self.value = value }
  /// A map value, sent as one constant, as the Python client's `Constant.of({…})` is.
  public init(_ value: [String: (any Sendable)?]) { self.value = value }

  private init(null: Void) { value = NSNull() }

  /// Null.
  public static let `nil` = Constant(null: ())

  func encoded(_ encoder: PipelineEncoder) throws(FirestoreError) -> PipelineExpression {
    .constant(try encoder.constant(value))
  }
}
