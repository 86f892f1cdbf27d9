import FirestoreWire
import Foundation

/// Evaluates a pipeline expression against one row, with the semantics Firestore's
/// pipeline documentation gives (firebase.google.com/docs/firestore/pipelines/functions):
///
/// - comparisons are two-valued: `1 == 1.0`, `NaN == NaN`, `null == null`; values of
///   different types are unequal and not ordered (every range comparison is false); an
///   absent operand is unequal to everything and in no range;
/// - `and`, `or`, `xor`, `nor` and `not` are three-valued, an absent operand counting
///   as null; `conditional` takes its else branch unless the condition is true;
/// - arithmetic: null (or absent) in, null out; `NaN` in, `NaN` out; integers stay
///   integers, and overflow, an integer division by zero and `mod` by zero are errors;
///   a double is the result when either operand is one (`1.0 / 0.0` is infinity);
/// - string functions: null or absent in, null out; another type is an error; lengths
///   and positions count Unicode code points.
///
/// What the documentation leaves open is decided here as SQL does, and said where done.
public struct PipelineExpressionEvaluator: Sendable {
  /// The row the expression reads.
  public let row: Document

  /// An evaluator over `row`.
  public init(row: Document) { self.row = row }

  /// The functions this evaluator runs, with how many arguments each takes; ``check(_:)``
  /// refuses the others.
  public static let functions: [String: ClosedRange<Int>] = {
    var table: [String: ClosedRange<Int>] = [:]
    for name in [
      "equal", "not_equal", "greater_than", "greater_than_or_equal", "less_than", "less_than_or_equal", "equal_any",
      "not_equal_any", "if_absent", "if_error", "if_null", "add", "subtract", "multiply", "divide", "mod", "starts_with",
      "ends_with", "string_contains", "like",
    ] {
      table[name] = 2...2
    }
    for name in [
      "not", "exists", "is_absent", "is_error", "abs", "char_length", "byte_length", "to_lower", "to_upper", "string_reverse",
    ] {
      table[name] = 1...1
    }
    for name in ["and", "or", "xor", "nor"] { table[name] = 1...Int.max }
    table["conditional"] = 3...3
    table["coalesce"] = 1...Int.max
    table["trim"] = 1...2
    table["string_concat"] = 1...Int.max
    table["substring"] = 2...3
    table["array"] = 0...Int.max
    table["map"] = 0...Int.max
    return table
  }()

  /// Refuses, before any row is read, an expression this evaluator cannot run: a
  /// function it does not know, a variable or a subquery.
  public static func check(_ expression: PipelineExpression) throws(PipelineEvaluationError) {
    switch expression {
    case .constant, .field: return
    case .array(let elements): for element in elements { try check(element) }
    case .map(let fields): for field in fields.values { try check(field) }
    case .variable(let name):
      throw PipelineEvaluationError(.unimplemented, "The mock does not run pipelines that read variables (\(name)).")
    case .pipeline:
      throw PipelineEvaluationError(.unimplemented, "The mock does not run subqueries.")
    case .function(let function):
      guard let arity = functions[function.name] else {
        throw PipelineEvaluationError(.unimplemented, "The mock does not run the pipeline function \(function.name).")
      }
      guard arity.contains(function.args.count), function.name != "map" || function.args.count % 2 == 0 else {
        throw .invalid("Wrong number of arguments (\(function.args.count)) for the function \(function.name).")
      }
      guard function.options.isEmpty else {
        throw PipelineEvaluationError(.unimplemented, "The mock does not run options of the function \(function.name).")
      }
      for arg in function.args { try check(arg) }
    }
  }

  /// The expression's result for this row.
  public func evaluate(_ expression: PipelineExpression) -> PipelineEvaluation {
    switch expression {
    case .constant(let value): return .value(value)
    case .field(let path):
      guard let segments = try? CanonicalFieldPath.decode(path), !segments.isEmpty else {
        return .error("invalid field path \(path)")
      }
      if segments == [CanonicalFieldPath.documentKey] { return row.name.isEmpty ? .absent : .value(.reference(row.name)) }
      return FieldMap.get(row.fields, segments).map(PipelineEvaluation.value) ?? .absent
    case .array(let elements): return array(elements)
    case .map(let fields):
      var out: [String: Value] = [:]
      for (key, field) in fields {
        switch evaluate(field) {
        case .value(let value): out[key] = value
        case .absent: break
        case .error(let message): return .error(message)
        }
      }
      return .value(.map(out))
    case .variable(let name): return .error("variable \(name) is not bound")
    case .pipeline: return .error("subqueries are not supported")
    case .function(let function): return call(function.name, function.args)
    }
  }

  private func call(_ name: String, _ args: [PipelineExpression]) -> PipelineEvaluation {
    // ``check(_:)`` refuses these before a pipeline runs; this keeps any other caller safe.
    guard let arity = Self.functions[name], arity.contains(args.count) else {
      return .error("\(name) is not a function of \(args.count) arguments this evaluator runs")
    }
    switch name {
    case "equal", "not_equal", "greater_than", "greater_than_or_equal", "less_than", "less_than_or_equal":
      return binary(args) { PipelineComparison.compare(name, $0, $1) }
    case "equal_any", "not_equal_any":
      return binary(args) { PipelineComparison.membership(name, $0, $1) }
    case "and", "or", "xor", "nor":
      return PipelineLogic.combine(name, args.map(evaluate))
    case "not":
      return unary(args) { PipelineLogic.not($0) }
    case "conditional":
      let condition = evaluate(args[0])
      if case .error = condition { return condition }
      return evaluate(condition == .value(.boolean(true)) ? args[1] : args[2])
    case "exists", "is_absent":
      return unary(args) { value in
        if case .error = value { return value }
        return .value(.boolean((value == .absent) == (name == "is_absent")))
      }
    case "is_error":
      return unary(args) { value in
        if case .error = value { return .value(.boolean(true)) }
        return .value(.boolean(false))
      }
    case "if_absent", "if_error", "if_null":
      let value = evaluate(args[0])
      switch (name, value) {
      case ("if_absent", .absent), ("if_error", .error), ("if_null", .value(.null)): return evaluate(args[1])
      default: return value
      }
    case "coalesce":
      // Not in the documentation: the first operand that is neither null nor absent, as in SQL.
      for arg in args {
        let value = evaluate(arg)
        if !value.isNullish { return value }
      }
      return .value(.null)
    case "add", "subtract", "multiply", "divide", "mod":
      return binary(args) { PipelineArithmetic.apply(name, $0, $1) }
    case "abs":
      return unary(args) { PipelineArithmetic.abs($0) }
    case "array":
      return array(args)
    case "map":
      guard args.count % 2 == 0 else { return .error("map takes key and value pairs") }
      var out: [String: Value] = [:]
      for i in stride(from: 0, to: args.count, by: 2) {
        guard case .value(.string(let key)) = evaluate(args[i]) else { return .error("a map key must be a string") }
        switch evaluate(args[i + 1]) {
        case .value(let value): out[key] = value
        case .absent: break
        case .error(let message): return .error(message)
        }
      }
      return .value(.map(out))
    default:
      return PipelineStrings.call(name, args.map(evaluate))
    }
  }

  /// An array of the elements; an absent element is null, as `array_agg` makes it.
  private func array(_ elements: [PipelineExpression]) -> PipelineEvaluation {
    var values: [Value] = []
    values.reserveCapacity(elements.count)
    for element in elements {
      switch evaluate(element) {
      case .value(let value): values.append(value)
      case .absent: values.append(.null)
      case .error(let message): return .error(message)
      }
    }
    return .value(.array(values))
  }

  private func unary(_ args: [PipelineExpression], _ body: (PipelineEvaluation) -> PipelineEvaluation)
    -> PipelineEvaluation
  {
    body(evaluate(args[0]))
  }

  private func binary(
    _ args: [PipelineExpression], _ body: (PipelineEvaluation, PipelineEvaluation) -> PipelineEvaluation
  ) -> PipelineEvaluation {
    let lhs = evaluate(args[0])
    if case .error = lhs { return lhs }
    let rhs = evaluate(args[1])
    if case .error = rhs { return rhs }
    return body(lhs, rhs)
  }
}
