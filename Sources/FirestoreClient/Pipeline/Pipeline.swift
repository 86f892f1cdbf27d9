import FirestoreWire

/// A pipeline query: a source of documents (``PipelineSource``), then stages that filter,
/// compute, group and order them, run by ``execute()`` on a database of the Enterprise
/// edition.
///
/// ```swift
/// let snapshot = try await db.pipeline().collection("books")
///   .where(Field("rating").greaterThan(4.5) && Field("genre").equal("Fantasy"))
///   .sort([Field("rating").descending()])
///   .limit(5)
///   .execute()
/// ```
///
/// A pipeline is an immutable value: each stage method returns a new pipeline. Inputs the
/// backend would refuse (a duplicate output name, an invalid path) are recorded and thrown
/// by ``execute()`` as `invalidArgument` before any request.
public class Pipeline: @unchecked Sendable {
  /// The database the pipeline runs on; `nil` for a ``Subcollection``, which only runs
  /// inside another pipeline.
  let firestore: Firestore?
  /// The stages, in order.
  let stages: [PipelineStageSpec]

  init(firestore: Firestore?, stages: [PipelineStageSpec]) {
    self.firestore = firestore
    self.stages = stages
  }

  /// This pipeline with `stage` added at the end.
  func adding(_ stage: PipelineStageSpec) -> Pipeline { Pipeline(firestore: firestore, stages: stages + [stage]) }

  /// The stages in request form.
  func encodedStages(_ encoder: PipelineEncoder) throws(FirestoreError) -> [PipelineStage] {
    var out: [PipelineStage] = []
    out.reserveCapacity(stages.count)
    for stage in stages { out.append(try stage.encoded(encoder)) }
    return out
  }

  /// This pipeline as a subquery yielding an array of its results (each a map, or the
  /// value itself when the results have one field).
  public func toArrayExpression() -> Expression {
    FunctionExpression(functionName: "array", args: [SubqueryExpression(pipeline: self)])
  }

  /// This pipeline as a subquery yielding its one result's value (null when it has none).
  public func toScalarExpression() -> Expression {
    FunctionExpression(functionName: "scalar", args: [SubqueryExpression(pipeline: self)])
  }
}

/// A nested pipeline as an expression argument.
struct SubqueryExpression: Expression, PipelineEncodable {
  let pipeline: Pipeline

  func encoded(_ encoder: PipelineEncoder) throws(FirestoreError) -> PipelineExpression {
    .pipeline(try pipeline.encodedStages(encoder))
  }
}
