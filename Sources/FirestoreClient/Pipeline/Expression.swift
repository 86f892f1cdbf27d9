import FirestoreWire

/// A value a pipeline computes for each document: a ``Field``, a ``Constant``, a
/// ``FunctionExpression``, a ``Variable``, or a call built from them with the methods of
/// this protocol (`Field("price").multiply(Field("qty"))`).
///
/// Methods that take `Sendable` accept plain Swift values as well as expressions: an
/// expression is used as it is, `nil` is null, `[Sendable?]` becomes an `array(…)` call and
/// `[String: Sendable?]` a `map(…)` call (element by element), ``TimeUnit``,
/// ``TimeGranularity`` and ``TimePart`` their names, and anything else a ``Constant``.
public protocol Expression: Sendable {}

/// What every expression this library defines knows: its form in a request.
protocol PipelineEncodable: Sendable {
  /// The expression as `executePipeline` reads it, with values of `encoder`'s database.
  func encoded(_ encoder: PipelineEncoder) throws(FirestoreError) -> PipelineExpression
}
