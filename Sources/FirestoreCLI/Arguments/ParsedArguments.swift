/// A command line split into the command name, its positional arguments and its options.
struct ParsedArguments: Sendable {
  /// The command name, if one was given.
  var command: String?
  /// Positional arguments after the command name, in order.
  var positionals: [String] = []
  /// Option values by option name, in the order given (flags hold an empty string).
  var options: [String: [String]] = [:]
  /// Whether `-h`/`--help` was given.
  var wantsHelp = false

  /// The value of a single-valued option.
  func value(_ name: String) -> String? { options[name]?.last }

  /// Every value of a repeatable option, in order.
  func values(_ name: String) -> [String] { options[name] ?? [] }

  /// Whether a flag (or any option) was given.
  func has(_ name: String) -> Bool { options[name] != nil }

  /// A non-negative integer option, or `nil` when absent.
  func integer(_ name: String, command: String) throws(UsageError) -> Int? {
    guard let text = value(name) else { return nil }
    guard let n = Int(text), n >= 0 else {
      throw UsageError("\(name) needs a non-negative integer, got '\(text)'", command: command)
    }
    return n
  }
}
