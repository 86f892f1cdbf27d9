import FirestoreWire

/// A `Sendable` argument of a method of ``Expression``, kept until the request is built,
/// where ``PipelineEncoder/encode(value:)`` converts it.
struct PipelineArgument: Expression, PipelineEncodable {
  let value: any Sendable

  init(_ value: any Sendable) { self.value = value }

  func encoded(_ encoder: PipelineEncoder) throws(FirestoreError) -> PipelineExpression {
    try encoder.encode(value: value)
  }
}
