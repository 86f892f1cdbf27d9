import FirestoreWire

/// `document_matches(…)`: whether the document matches a full-text query, for `search`.
public struct DocumentMatches: BooleanExpression, PipelineEncodable {
  let query: String

  /// Matches documents for the full-text `query` (such as `"waffles -diner"`).
  public init(_ query: String) { self.query = query }

  func encoded(_ encoder: PipelineEncoder) throws(FirestoreError) -> PipelineExpression {
    .function(PipelineFunction(name: "document_matches", args: [.constant(.string(query))]))
  }
}
