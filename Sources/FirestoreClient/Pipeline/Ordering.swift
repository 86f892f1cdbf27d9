import FirestoreWire

/// One key of a `sort` stage, made by ``Expression/ascending()`` or
/// ``Expression/descending()``.
public struct Ordering: Sendable {
  /// What is compared.
  public let expression: Expression
  /// Which way.
  public let direction: Direction

  /// `{"direction": …, "expression": …}`, as a `sort` stage and `search` send it.
  func encoded(_ encoder: PipelineEncoder) throws(FirestoreError) -> PipelineExpression {
    Self.encoded(try encoder.encode(expression), direction)
  }

  /// A sort key in request form.
  static func encoded(_ expression: PipelineExpression, _ direction: Direction) -> PipelineExpression {
    .map(["direction": .constant(.string(direction.rawValue)), "expression": expression])
  }
}

extension Expression {
  /// Sorts by this expression, smallest first.
  public func ascending() -> Ordering { Ordering(expression: self, direction: .ascending) }
  /// Sorts by this expression, largest first.
  public func descending() -> Ordering { Ordering(expression: self, direction: .descending) }
}
