import FirestoreWire

/// `score()`: how well the document matched a `search` stage's query.
public struct Score: Expression, PipelineEncodable {
  /// The search score.
  public init() {}

  func encoded(_ encoder: PipelineEncoder) throws(FirestoreError) -> PipelineExpression {
    .function(PipelineFunction(name: "score"))
  }
}
