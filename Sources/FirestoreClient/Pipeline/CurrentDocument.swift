import FirestoreWire

/// `current_document()`: the whole document a stage is looking at, as a map.
public struct CurrentDocument: Expression, PipelineEncodable {
  /// The current document.
  public init() {}

  func encoded(_ encoder: PipelineEncoder) throws(FirestoreError) -> PipelineExpression {
    .function(PipelineFunction(name: "current_document"))
  }
}
