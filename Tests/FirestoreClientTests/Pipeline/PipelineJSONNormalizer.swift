import FirestoreWire

/// Puts a pipeline request's JSON in one form, so that two encoders' bodies compare equal
/// exactly when they mean the same request:
///
/// - object members sorted by key;
/// - `integerValue` as a decimal string, `doubleValue` as Swift prints the double (the
///   Python client prints `1e+300` where Swift prints `1e+300`, but `1.0` where Swift
///   prints `1.0`, and integers of a vector as `1.0`), `NaN` and the infinities as strings;
/// - `nullValue` as `null` (the Python REST transport writes the enum's number, 0);
/// - `timestampValue` with the fraction digits this library writes;
/// - the arguments of a `map(…)` call with their key–value pairs in key order: the Apple
///   SDK's API takes a Swift dictionary, which has no order, and the call's result has none.
enum PipelineJSONNormalizer {
  static func normalized(_ json: JSONValue) -> JSONValue {
    switch json {
    case .array(let elements): return .array(elements.map(normalized))
    case .object(let members):
      var out: [(String, JSONValue)] = []
      for (key, value) in members.sorted(by: { $0.0 < $1.0 }) {
        out.append((key, member(key, value)))
      }
      return .object(out)
    default: return json
    }
  }

  private static func member(_ key: String, _ value: JSONValue) -> JSONValue {
    switch (key, value) {
    case ("integerValue", .string(let text)), ("integerValue", .number(let text)):
      return .string(Int64(text).map(String.init) ?? text)
    case ("doubleValue", .number(let text)), ("doubleValue", .string(let text)):
      guard let d = Double(text) ?? special[text] else { return value }
      return FirestoreWire.Value.json(double: d)
    case ("nullValue", _):
      return .null
    case ("timestampValue", .string(let text)):
      guard let t = try? Timestamp(rfc3339: text) else { return value }
      return .string(t.rfc3339)
    case ("functionValue", .object):
      return mapArgumentsSorted(normalized(value))
    default:
      return normalized(value)
    }
  }

  private static let special: [String: Double] = ["NaN": .nan, "Infinity": .infinity, "-Infinity": -.infinity]

  private static func mapArgumentsSorted(_ function: JSONValue) -> JSONValue {
    guard function["name"]?.stringValue == "map", case .array(let args)? = function["args"], args.count % 2 == 0,
      case .object(let members) = function
    else { return function }
    var pairs: [(String, JSONValue, JSONValue)] = []
    for i in stride(from: 0, to: args.count, by: 2) {
      guard let key = args[i]["stringValue"]?.stringValue else { return function }
      pairs.append((key, args[i], args[i + 1]))
    }
    let sorted = pairs.sorted { $0.0 < $1.0 }.flatMap { [$0.1, $0.2] }
    return .object(members.map { $0.0 == "args" ? ("args", .array(sorted)) : $0 })
  }
}
