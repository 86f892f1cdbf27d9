import FirestoreWire

/// The logical functions: three-valued (Kleene) logic, an absent operand counting as null.
enum PipelineLogic {
  /// A truth value: `true`, `false`, or `nil` for null (or absent); a non-boolean is an error.
  private static func truth(_ value: PipelineEvaluation) -> Result<Bool?, PipelineEvaluationError> {
    switch value {
    case .value(.boolean(let b)): return .success(b)
    case .value(.null), .absent: return .success(nil)
    case .error(let message): return .failure(.invalid(message))
    case .value(let other): return .failure(.invalid("a logical function takes booleans, not \(other.kindName)"))
    }
  }

  /// `and`, `or`, `xor` and `nor` over the operands.
  static func combine(_ name: String, _ operands: [PipelineEvaluation]) -> PipelineEvaluation {
    var truths: [Bool?] = []
    for operand in operands {
      switch truth(operand) {
      case .success(let t): truths.append(t)
      case .failure(let error): return .error(error.message)
      }
    }
    let result: Bool?
    switch name {
    case "and": result = truths.contains(false) ? false : (truths.contains(nil) ? nil : true)
    case "or", "nor":
      let or: Bool? = truths.contains(true) ? true : (truths.contains(nil) ? nil : false)
      result = name == "or" ? or : or.map { !$0 }
    default:
      result = truths.contains(nil) ? nil : truths.reduce(false) { $0 != $1! }
    }
    return .value(result.map(Value.boolean) ?? .null)
  }

  /// `not`: null (or absent) stays null, as in SQL; the documentation is silent on it.
  static func not(_ operand: PipelineEvaluation) -> PipelineEvaluation {
    switch truth(operand) {
    case .success(let t): return .value(t.map { .boolean(!$0) } ?? .null)
    case .failure(let error): return .error(error.message)
    }
  }
}
