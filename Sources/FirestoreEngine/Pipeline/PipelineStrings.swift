import FirestoreWire

/// The string functions. Null or absent in gives null out (the documentation is silent;
/// as in SQL); another type is an error. Lengths and positions count Unicode code points.
enum PipelineStrings {
  static func call(_ name: String, _ args: [PipelineEvaluation]) -> PipelineEvaluation {
    for arg in args {
      if case .error = arg { return arg }
    }
    if args.contains(where: \.isNullish) { return .value(.null) }
    let values = args.compactMap(\.value)
    switch (name, values.first) {
    case ("byte_length", .bytes(let data)?): return .value(.integer(Int64(data.count)))
    default: break
    }
    var strings: [String] = []
    var others: [Value] = []
    for (i, value) in values.enumerated() {
      if case .string(let s) = value {
        strings.append(s)
      } else if !(name == "substring" && i > 0) {
        return .error("\(name) takes strings, not \(value.kindName)")
      } else {
        others.append(value)
      }
    }
    switch name {
    case "char_length": return .value(.integer(Int64(strings[0].unicodeScalars.count)))
    case "byte_length": return .value(.integer(Int64(strings[0].utf8.count)))
    case "to_lower": return .value(.string(strings[0].lowercased()))
    case "to_upper": return .value(.string(strings[0].uppercased()))
    case "string_reverse": return .value(.string(String(String.UnicodeScalarView(strings[0].unicodeScalars.reversed()))))
    case "starts_with": return .value(.boolean(strings[0].unicodeScalars.starts(with: strings[1].unicodeScalars)))
    case "ends_with":
      return .value(.boolean(strings[0].unicodeScalars.reversed().starts(with: strings[1].unicodeScalars.reversed())))
    case "string_contains": return .value(.boolean(contains(strings[0], strings[1])))
    case "like": return .value(.boolean(like(Array(strings[0].unicodeScalars), Array(strings[1].unicodeScalars))))
    case "string_concat": return .value(.string(strings.joined()))
    case "trim": return .value(.string(trim(strings[0], strings.count > 1 ? Set(strings[1].unicodeScalars) : whitespace)))
    case "substring": return substring(strings[0], others)
    default: return .error("unknown function \(name)")
    }
  }

  private static let whitespace: Set<Unicode.Scalar> = [" ", "\t", "\n", "\r", "\u{0C}", "\u{0B}"]

  private static func contains(_ text: String, _ part: String) -> Bool {
    let haystack = Array(text.unicodeScalars)
    let needle = Array(part.unicodeScalars)
    if needle.isEmpty { return true }
    guard needle.count <= haystack.count else { return false }
    for start in 0...(haystack.count - needle.count) where haystack[start..<(start + needle.count)].elementsEqual(needle) {
      return true
    }
    return false
  }

  private static func trim(_ text: String, _ set: Set<Unicode.Scalar>) -> String {
    var scalars = Array(text.unicodeScalars)[...]
    while let first = scalars.first, set.contains(first) { scalars.removeFirst() }
    while let last = scalars.last, set.contains(last) { scalars.removeLast() }
    return String(String.UnicodeScalarView(scalars))
  }

  /// `substring(text, position[, length])`: zero-based code points; a negative position
  /// counts from the end (clamped at the start); past the end is empty; a negative length
  /// is an error.
  private static func substring(_ text: String, _ bounds: [Value]) -> PipelineEvaluation {
    guard case .integer(let position) = bounds[0] else { return .error("substring takes an integer position") }
    let scalars = Array(text.unicodeScalars)
    let count = Int64(scalars.count)
    var start = position < 0 ? max(count + position, 0) : position
    start = min(start, count)
    var end = count
    if bounds.count > 1 {
      guard case .integer(let length) = bounds[1], length >= 0 else {
        return .error("substring takes a non-negative integer length")
      }
      end = start + min(length, count - start)
    }
    return .value(.string(String(String.UnicodeScalarView(scalars[Int(start)..<Int(end)]))))
  }

  /// SQL `LIKE`: `%` any run, `_` one code point, `\` makes the next one literal.
  private static func like(_ text: [Unicode.Scalar], _ pattern: [Unicode.Scalar]) -> Bool {
    var tokens: [(scalar: Unicode.Scalar?, any: Bool)] = []
    var i = 0
    while i < pattern.count {
      let c = pattern[i]
      if c == "\\", i + 1 < pattern.count {
        tokens.append((pattern[i + 1], false))
        i += 2
        continue
      }
      switch c {
      case "%": tokens.append((nil, true))
      case "_": tokens.append((nil, false))
      default: tokens.append((c, false))
      }
      i += 1
    }
    // The positions of the text the pattern so far can have matched up to.
    var reachable = Set([0])
    for token in tokens {
      var next = Set<Int>()
      if token.any {
        // `%` reaches every position from the first one reached on: one range, not one per position.
        next.formUnion(reachable.min()!...text.count)
      }
      for position in reachable where !token.any {
        if position < text.count, token.scalar == nil || token.scalar == text[position] {
          next.insert(position + 1)
        }
      }
      reachable = next
      if reachable.isEmpty { return false }
    }
    return reachable.contains(text.count)
  }
}
