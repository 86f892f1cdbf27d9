/// Splits a command line into ``ParsedArguments``, by hand (no packages).
///
/// Global options are accepted anywhere; a command's own options after its name. Both
/// `--name value` and `--name=value` work; `--` ends the options; `-` is a positional
/// (standard input).
struct ArgumentParser: Sendable {
  /// Options every command accepts.
  let globalOptions: [OptionSpec]
  /// The commands, by name.
  let commands: [String: Command]

  /// Parses the arguments after the program name.
  ///
  /// - Throws: ``UsageError`` for an unknown command or option, a missing value, a value
  ///   given to a flag, or a single-valued option given twice.
  func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
    var parsed = ParsedArguments()
    var command: Command?
    var optionsEnded = false
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
        if parsed.command == nil {
          guard let found = commands[argument] else {
            throw UsageError("unknown command '\(argument)' (commands: \(commands.keys.sorted().joined(separator: ", ")))")
          }
          parsed.command = argument
          command = found
        } else {
          parsed.positionals.append(argument)
        }
        continue
      }
      if argument == "--" {
        optionsEnded = true
        continue
      }
      if argument == "-h" || argument == "--help" {
        parsed.wantsHelp = true
        continue
      }
      var name = argument
      var inline: String?
      if let equals = argument.firstIndex(of: "=") {
        name = String(argument[..<equals])
        inline = String(argument[argument.index(after: equals)...])
      }
      guard let spec = globalOptions.first(where: { $0.name == name }) ?? command?.options.first(where: { $0.name == name }) else {
        if let command {
          throw UsageError("unknown option '\(name)' for '\(command.name)'", command: command.name)
        }
        throw UsageError("unknown option '\(name)' (a command's own options go after the command name)")
      }
      let value: String
      if spec.valueName != nil {
        if let inline {
          value = inline
        } else if index < arguments.count {
          value = arguments[index]
          index += 1
        } else {
          throw UsageError("\(name) needs a value (\(spec.synopsis))", command: parsed.command)
        }
      } else {
        guard inline == nil else { throw UsageError("\(name) takes no value", command: parsed.command) }
        value = ""
      }
      if !spec.repeatable, parsed.options[name] != nil {
        throw UsageError("\(name) given more than once", command: parsed.command)
      }
      parsed.options[name, default: []].append(value)
    }
    return parsed
  }
}
