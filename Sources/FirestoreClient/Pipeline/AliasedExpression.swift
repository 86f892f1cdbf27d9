/// An expression with the name of the field it is written to, made by
/// ``Expression/as(_:)``.
public struct AliasedExpression: Selectable, NamedSelection {
  let alias: String
  let expression: any Expression
}

extension Expression {
  /// This expression, written to the output field `name`.
  ///
  /// ```swift
  /// .select([Field("price").multiply(Field("qty")).as("total")])
  /// ```
  public func `as`(_ name: String) -> AliasedExpression { AliasedExpression(alias: name, expression: self) }
}
