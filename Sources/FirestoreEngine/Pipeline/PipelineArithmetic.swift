import FirestoreWire

/// The arithmetic functions.
enum PipelineArithmetic {
  /// `add`, `subtract`, `multiply`, `divide`, `mod` of two operands.
  static func apply(_ name: String, _ lhs: PipelineEvaluation, _ rhs: PipelineEvaluation) -> PipelineEvaluation {
    // Absent is not documented; it is null here, as a missing column is in SQL.
    if lhs.isNullish || rhs.isNullish { return .value(.null) }
    guard case .value(let a) = lhs, case .value(let b) = rhs else { return .value(.null) }
    switch (a, b) {
    case (.integer(let x), .integer(let y)): return integers(name, x, y)
    default:
      guard let x = a.numericDouble, let y = b.numericDouble else {
        return .error("\(name) takes numbers, not \(a.kindName) and \(b.kindName)")
      }
      switch name {
      case "add": return .value(.double(x + y))
      case "subtract": return .value(.double(x - y))
      case "multiply": return .value(.double(x * y))
      case "divide": return .value(.double(x / y))
      default: return .value(.double(x.truncatingRemainder(dividingBy: y)))
      }
    }
  }

  private static func integers(_ name: String, _ x: Int64, _ y: Int64) -> PipelineEvaluation {
    let (result, overflow): (Int64, Bool)
    switch name {
    case "add": (result, overflow) = x.addingReportingOverflow(y)
    case "subtract": (result, overflow) = x.subtractingReportingOverflow(y)
    case "multiply": (result, overflow) = x.multipliedReportingOverflow(by: y)
    case "divide":
      if y == 0 { return .error("integer division by zero") }
      (result, overflow) = x.dividedReportingOverflow(by: y)
    default:
      if y == 0 { return .error("integer modulo by zero") }
      // The sign of the dividend, as Swift's remainder has; Int64.min % -1 is 0.
      (result, overflow) = x.remainderReportingOverflow(dividingBy: y)
    }
    if overflow && name != "mod" { return .error("integer overflow in \(name)") }
    return .value(.integer(overflow ? 0 : result))
  }

  /// `abs`.
  static func abs(_ operand: PipelineEvaluation) -> PipelineEvaluation {
    if operand.isNullish { return .value(.null) }
    switch operand {
    case .value(.integer(let i)):
      guard i != .min else { return .error("integer overflow in abs") }
      return .value(.integer(Swift.abs(i)))
    case .value(.double(let d)): return .value(.double(Swift.abs(d)))
    case .value(let other): return .error("abs takes a number, not \(other.kindName)")
    default: return operand
    }
  }
}

extension Value {
  /// An integer or a double as a double.
  var numericDouble: Double? {
    switch self {
    case .integer(let i): return Double(i)
    case .double(let d): return d
    default: return nil
    }
  }
}
