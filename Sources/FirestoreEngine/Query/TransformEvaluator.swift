import FirestoreWire

/// Applies field transforms (`updateTransforms` of a write) as the Firestore emulator does:
/// the mock commits with it and the client computes latency-compensated local documents.
///
/// Verified on the emulator:
/// * `increment`: integer + integer stays an integer and saturates at `Int64.max`/`.min`
///   instead of overflowing; any double operand or stored value makes the result a double
///   (the integer is converted first: 2^53 + 1 plus 0.0 gives 2^53); a missing or
///   non-numeric field (string, null, …) becomes the operand itself;
/// * `maximum`/`minimum`: a missing or non-numeric field becomes the operand; numbers
///   compare exactly across integers and doubles; on a tie the stored value (and its type)
///   is kept; `NaN` on either side gives `NaN`;
/// * `appendMissingElements`: a missing or non-array field starts as `[]`; each operand
///   element not already present (Firestore equality: `1 == 1.0`, `NaN == NaN`,
///   `null == null`, deep in maps) is appended, so a repeated operand is added once;
///   duplicates already stored stay;
/// * `removeAllFromArray`: a missing or non-array field becomes `[]`; every element equal
///   to an operand element is removed;
/// * `serverTimestamp`: the request time truncated to milliseconds;
/// * the transform result is the new value, except `null` for the two array transforms.
public enum TransformEvaluator {
  /// The field's new value and the transform result reported in `transformResults`.
  ///
  /// - Parameters:
  ///   - transform: the transform to apply.
  ///   - current: the field's value before this transform (after the write's update and
  ///     any earlier transform of the same field), `nil` when absent.
  ///   - requestTime: the time of the commit.
  public static func apply(_ transform: FieldTransform.Kind, to current: Value?, requestTime: Timestamp) -> (newValue: Value, result: Value)
  {
    switch transform {
    case .serverTimestamp:
      let ms = Timestamp(seconds: requestTime.seconds, nanoseconds: requestTime.nanoseconds - requestTime.nanoseconds % 1_000_000)
      return (.timestamp(ms), .timestamp(ms))
    case .increment(let operand):
      let v = increment(current, by: operand)
      return (v, v)
    case .maximum(let operand):
      let v = extremum(current, operand, keepLarger: true)
      return (v, v)
    case .minimum(let operand):
      let v = extremum(current, operand, keepLarger: false)
      return (v, v)
    case .appendMissingElements(let elements):
      var array = arrayValue(current)
      for e in elements where !array.contains(where: { ValueOrdering.areEqual($0, e) }) {
        array.append(e)
      }
      return (.array(array), .null)
    case .removeAllFromArray(let elements):
      let array = arrayValue(current).filter { a in !elements.contains { ValueOrdering.areEqual(a, $0) } }
      return (.array(array), .null)
    }
  }

  private static func arrayValue(_ v: Value?) -> [Value] {
    if case .array(let a)? = v { return a }
    return []
  }

  /// The number an increment of `current` adds to: `current` when it is a number, else 0.
  public static func incrementBase(_ current: Value?) -> Value {
    if let current, isNumber(current) { return current }
    return .integer(0)
  }

  private static func increment(_ current: Value?, by operand: Value) -> Value {
    // Over no number the field is set to the operand as given (Firestore's documented rule),
    // not to 0 + operand.
    switch (current, operand) {
    case (.integer(let a)?, .integer(let b)):
      let (sum, overflow) = a.addingReportingOverflow(b)
      if overflow { return .integer(b > 0 ? .max : .min) }
      return .integer(sum)
    case (.integer(let a)?, .double(let b)): return .double(Double(a) + b)
    case (.double(let a)?, .integer(let b)): return .double(a + Double(b))
    case (.double(let a)?, .double(let b)): return .double(a + b)
    default: return operand
    }
  }

  private static func extremum(_ current: Value?, _ operand: Value, keepLarger: Bool) -> Value {
    guard let current, isNumber(current) else { return operand }
    if isNaN(current) { return current }
    if isNaN(operand) { return operand }
    let c = ValueOrdering.compare(operand, current)
    return (keepLarger ? c > 0 : c < 0) ? operand : current
  }

  private static func isNumber(_ v: Value) -> Bool {
    switch v {
    case .integer, .double: return true
    default: return false
    }
  }

  private static func isNaN(_ v: Value) -> Bool {
    if case .double(let d) = v { return d.isNaN }
    return false
  }
}
