import FirestoreWire

/// An expression that yields a boolean, as `where` and `countIf()` take:
/// comparisons, `exists()`, `&&`, `||`, `!`, and ``Expression/asBoolean()``.
public protocol BooleanExpression: Expression {}

/// A boolean-valued function call: what comparisons and the logical operators build.
final class BooleanFunctionExpression: FunctionExpression, BooleanExpression, @unchecked Sendable {}

/// An expression the caller declares boolean without wrapping it in a function.
struct BooleanView: BooleanExpression, PipelineEncodable {
  let base: any Expression

  func encoded(_ encoder: PipelineEncoder) throws(FirestoreError) -> PipelineExpression {
    try encoder.encode(base)
  }
}

extension Expression {
  /// This expression, typed as a ``BooleanExpression`` so that `where` and the logical
  /// operators take it; nothing is added to the request.
  public func asBoolean() -> BooleanExpression {
    if let boolean = self as? BooleanExpression { return boolean }
    return BooleanView(base: self)
  }
}
