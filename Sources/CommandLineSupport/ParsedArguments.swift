/// A command line split into the command name, its positional arguments and its options.
package struct ParsedArguments: Sendable {
  /// The command name, if one was given.
  package var command: String?
  /// Positional arguments after the command name, in order.
  package var positionals: [String] = []
  /// Option values by option name, in the order given (flags hold an empty string).
  package var options: [String: [String]] = [:]
  /// Whether `-h`/`--help` was given.
  package var wantsHelp = false

  /// Nothing parsed yet.
  package init() {}

  /// The value of a single-valued option.
  package func value(_ name: String) -> String? { options[name]?.last }

  /// Every value of a repeatable option, in order.
  package func values(_ name: String) -> [String] { options[name] ?? [] }

  /// Whether a flag (or any option) was given.
  package func has(_ name: String) -> Bool { options[name] != nil }

  /// A non-negative integer option, or `nil` when absent.
  package func integer(_ name: String, command: String? = nil) throws(UsageError) -> Int? {
    guard let text = value(name) else { return nil }
    guard let n = Int(text), n >= 0 else {
      throw UsageError("\(name) needs a non-negative integer, got '\(text)'", command: command)
    }
    return n
  }

  /// A positive integer option, or `nil` when absent.
  package func positiveInteger(_ name: String) throws(UsageError) -> Int? {
    guard let text = value(name) else { return nil }
    guard let n = Int(text), n > 0 else { throw UsageError("\(name) takes a positive whole number, not \"\(text)\"") }
    return n
  }
}
