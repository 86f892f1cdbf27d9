/// `and`: whether both hold. A chain `a && b && c` is sent as one `and(a, b, c)`.
public func && (lhs: BooleanExpression, rhs: @autoclosure () throws -> BooleanExpression) rethrows -> BooleanExpression {
  BooleanFunctionExpression(functionName: "and", args: joined("and", lhs) + [try rhs()])
}

/// `or`: whether either holds. A chain `a || b || c` is sent as one `or(a, b, c)`.
public func || (lhs: BooleanExpression, rhs: @autoclosure () throws -> BooleanExpression) rethrows -> BooleanExpression {
  BooleanFunctionExpression(functionName: "or", args: joined("or", lhs) + [try rhs()])
}

/// `xor`: whether an odd number of the operands hold.
public func ^ (lhs: BooleanExpression, rhs: @autoclosure () throws -> BooleanExpression) rethrows -> BooleanExpression {
  BooleanFunctionExpression(functionName: "xor", args: joined("xor", lhs) + [try rhs()])
}

/// `not`: whether `lhs` does not hold.
public prefix func ! (lhs: BooleanExpression) -> BooleanExpression {
  BooleanFunctionExpression(functionName: "not", args: [lhs])
}

/// `nor`: whether none of the conditions hold.
public func nor(_ condition: BooleanExpression, _ conditions: BooleanExpression...) -> BooleanExpression {
  BooleanFunctionExpression(functionName: "nor", args: [condition] + conditions)
}

/// `nor`: whether none of the conditions hold.
public func nor(_ conditions: [BooleanExpression]) -> BooleanExpression {
  BooleanFunctionExpression(functionName: "nor", args: conditions)
}

/// `switch_on`: the result paired with the first condition that holds. `others` go on in
/// pairs (condition, result); an odd one at the end is the default.
public func switchOn(_ condition: BooleanExpression, _ result: Expression, _ others: Expression...) -> Expression {
  FunctionExpression(functionName: "switch_on", args: [condition, result] + others)
}

/// `rand()`: a pseudo-random double in [0, 1).
public func rand() -> RandomExpression { RandomExpression() }

/// The operands of `lhs` when it is itself a call of `name` (the left of a chain), else
/// `lhs` alone: the three operators are associative, so the chain is one call.
private func joined(_ name: String, _ lhs: BooleanExpression) -> [any Expression] {
  if let call = lhs as? BooleanFunctionExpression, call.functionName == name { return call.args }
  return [lhs]
}
