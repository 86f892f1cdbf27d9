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

  /// The largest whole number any option takes: more than any count or limit means
  /// (Firestore's limits are 32-bit), and small enough that no conversion or product of
  /// it can trap.
  package static let largestInteger = Int(Int32.max)
  /// The largest number of seconds (or other real number) any option takes: over 31
  /// million years, and still a `Duration` (which traps past about 9.2e18 seconds).
  package static let largestNumber = 1e15

  /// A non-negative integer option, or `nil` when absent.
  package func integer(_ name: String, command: String? = nil) throws(UsageError) -> Int? {
    guard let text = value(name) else { return nil }
    guard let n = Int(text), n >= 0 else {
      throw UsageError("\(name) needs a non-negative integer, got '\(text)'", command: command)
    }
    guard n <= Self.largestInteger else {
      throw UsageError("\(name) must be at most \(Self.largestInteger), got '\(text)'", command: command)
    }
    return n
  }

  /// A positive integer option, or `nil` when absent.
  package func positiveInteger(_ name: String) throws(UsageError) -> Int? {
    guard let text = value(name) else { return nil }
    guard let n = Int(text), n > 0 else { throw UsageError("\(name) takes a positive whole number, not \"\(text)\"") }
    guard n <= Self.largestInteger else { throw UsageError("\(name) must be at most \(Self.largestInteger), not \"\(text)\"") }
    return n
  }

  /// A positive, finite number option no larger than ``largestNumber``, or `nil` when
  /// absent; `unit` names what it counts in the message (`seconds`).
  package func positiveNumber(_ name: String, unit: String = "", command: String? = nil) throws(UsageError) -> Double? {
    guard let text = value(name) else { return nil }
    let what = unit.isEmpty ? "a positive number" : "a positive number of \(unit)"
    guard let number = Double(text), number > 0, number.isFinite else {
      throw UsageError("\(name) needs \(what), got '\(text)'", command: command)
    }
    guard number <= Self.largestNumber else {
      throw UsageError("\(name) needs \(what) up to 1e15, got '\(text)'", command: command)
    }
    return number
  }

  /// A positive number of seconds no larger than ``largestNumber``, as a duration, or
  /// `nil` when absent.
  package func seconds(_ name: String, command: String? = nil) throws(UsageError) -> Duration? {
    guard let seconds = try positiveNumber(name, unit: "seconds", command: command) else { return nil }
    // Whole milliseconds, rounded up so that a tiny positive value still waits.
    return .milliseconds(Int64((seconds * 1000).rounded(.up)))
  }
}
