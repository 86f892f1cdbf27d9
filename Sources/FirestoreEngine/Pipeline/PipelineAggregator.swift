import FirestoreWire

/// The `aggregate` and `distinct` stages: rows grouped by the values of the group
/// expressions (numbers by value, so `1` and `1.0` are one group; absent as null), one
/// output row per group with the group values and the accumulators under their names.
/// Without groups there is one row, even over no input.
enum PipelineAggregator {
  static let accumulators: Set<String> = ["count", "count_if", "count_distinct", "sum", "average", "minimum", "maximum"]

  /// Refuses an accumulator this evaluator does not run, or one of the wrong shape.
  static func check(_ expression: PipelineExpression) throws(PipelineEvaluationError) {
    guard case .function(let function) = expression else {
      throw .invalid("An aggregate's accumulator must be a function call.")
    }
    guard accumulators.contains(function.name) else {
      throw PipelineEvaluationError(.unimplemented, "The mock does not run the aggregate function \(function.name).")
    }
    let arity = function.name == "count" ? 0...1 : 1...1
    guard arity.contains(function.args.count) else {
      throw .invalid("Wrong number of arguments (\(function.args.count)) for the aggregate function \(function.name).")
    }
    for arg in function.args { try PipelineExpressionEvaluator.check(arg) }
  }

  static func group(
    _ rows: [Document], by groups: [String: PipelineExpression], accumulators: [String: PipelineExpression]
  ) throws(PipelineEvaluationError) -> [Document] {
    let groupNames = groups.keys.sorted()
    var order: [[UInt8]] = []
    var members: [[UInt8]: (keys: [Value], rows: [Document])] = [:]
    if groups.isEmpty {
      order = [[]]
      members[[]] = ([], rows)
    } else {
      for row in rows {
        let evaluator = PipelineExpressionEvaluator(row: row)
        var keys: [Value] = []
        var identity: [UInt8] = []
        for name in groupNames {
          let value: Value
          switch evaluator.evaluate(groups[name]!) {
          case .value(let v): value = v
          case .absent: value = .null
          case .error(let message): throw .invalid(message)
          }
          keys.append(value)
          identity += ValueOrderingKey.encode(value)
        }
        if members[identity] == nil {
          order.append(identity)
          members[identity] = (keys, [])
        }
        members[identity]!.rows.append(row)
      }
    }
    var out: [Document] = []
    for identity in order {
      let (keys, groupRows) = members[identity]!
      var fields: [String: Value] = [:]
      for (name, key) in zip(groupNames, keys) { fields[name] = key }
      for (name, accumulator) in accumulators {
        fields[name] = try accumulate(accumulator, over: groupRows)
      }
      out.append(Document(name: "", fields: fields))
    }
    return out
  }

  /// One accumulator over a group's rows. Null and absent values are skipped; `sum` and
  /// `average` skip what is not a number; an accumulator with nothing to take is null
  /// (`count`: zero).
  private static func accumulate(_ expression: PipelineExpression, over rows: [Document]) throws(PipelineEvaluationError)
    -> Value
  {
    guard case .function(let function) = expression else { throw .invalid("An accumulator must be a function call.") }
    if function.name == "count" && function.args.isEmpty { return .integer(Int64(rows.count)) }
    var values: [Value] = []
    for row in rows {
      switch PipelineExpressionEvaluator(row: row).evaluate(function.args[0]) {
      case .value(.null), .absent: continue
      case .value(let value): values.append(value)
      case .error(let message): throw .invalid(message)
      }
    }
    switch function.name {
    case "count": return .integer(Int64(values.count))
    case "count_if": return .integer(Int64(values.filter { $0 == .boolean(true) }.count))
    case "count_distinct": return .integer(Int64(Set(values.map(ValueOrderingKey.encode)).count))
    case "minimum": return values.min { ValueOrdering.compare($0, $1) < 0 } ?? .null
    case "maximum": return values.max { ValueOrdering.compare($0, $1) < 0 } ?? .null
    case "sum": return sum(values.filter { $0.numericDouble != nil }) ?? .null
    default:
      let numbers = values.compactMap(\.numericDouble)
      guard !numbers.isEmpty else { return .null }
      return .double(numbers.reduce(0, +) / Double(numbers.count))
    }
  }

  /// An integer while every value is one and the sum fits, else a double.
  private static func sum(_ values: [Value]) -> Value? {
    guard !values.isEmpty else { return nil }
    var integer: Int64? = 0
    var double = 0.0
    for value in values {
      double += value.numericDouble!
      if let total = integer, case .integer(let i) = value {
        let (next, overflow) = total.addingReportingOverflow(i)
        integer = overflow ? nil : next
      } else {
        integer = nil
      }
    }
    return integer.map(Value.integer) ?? .double(double)
  }
}
