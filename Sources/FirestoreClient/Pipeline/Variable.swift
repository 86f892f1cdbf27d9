import FirestoreWire

/// A name bound by ``Pipeline/define(_:)`` (or by a lambda of `arrayFilter` and
/// `arrayTransform`), read where it is in scope, such as in a subquery.
public struct Variable: Expression, PipelineEncodable {
  let name: String

  /// The variable bound as `name`.
  public init(_ name: String) { self.name = name }

  func encoded(_ encoder: PipelineEncoder) throws(FirestoreError) -> PipelineExpression { .variable(name) }
}
