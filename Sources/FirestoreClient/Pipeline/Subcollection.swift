/// The source of a subquery: a subcollection of the document the outer pipeline is
/// looking at. It runs only inside another pipeline, through
/// ``Pipeline/toArrayExpression()`` or ``Pipeline/toScalarExpression()``.
///
/// ```swift
/// db.pipeline().collection("books")
///   .addFields([Subcollection("reviews").select(["stars"]).toArrayExpression().as("stars")])
/// ```
public class Subcollection: Pipeline, @unchecked Sendable {
  /// The subcollection `path` below the current document.
  public init(_ path: String) {
    super.init(firestore: nil, stages: [PipelineStageSpec(name: "subcollection", args: [.wire(.constant(.string(path)))])])
  }
}
