/// Splits a command line into ``ParsedArguments``, by hand (no packages): the one parser of
/// every executable in the package.
///
/// Global options are accepted anywhere; a command's own options after its name. Both
/// `--name value` and `--name=value` work; `--` ends the options; `-` is a positional
/// (standard input). A tool without commands takes every bare argument as a positional.
package struct ArgumentParser: Sendable {
  /// Options accepted anywhere (every option of a tool without commands).
  package let globalOptions: [OptionSpec]
  /// Each command's own options, by command name; empty for a tool without commands.
  package let commands: [String: [OptionSpec]]

  /// A parser for `globalOptions` and, for a tool with commands, each command's options.
  package init(globalOptions: [OptionSpec], commands: [String: [OptionSpec]] = [:]) {
    self.globalOptions = globalOptions
    self.commands = commands
  }

  /// Parses the arguments after the program name.
  ///
  /// - Throws: ``UsageError`` for an unknown command or option, a missing value, a value
  ///   given to a flag, or a single-valued option given twice.
  package func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
    var parsed = ParsedArguments()
    var commandOptions: [OptionSpec] = []
    var optionsEnded = false
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
        if parsed.command == nil && !commands.isEmpty {
          guard let found = commands[argument] else {
            throw UsageError("unknown command '\(argument)' (commands: \(commands.keys.sorted().joined(separator: ", ")))")
          }
          parsed.command = argument
          commandOptions = found
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
      guard let spec = globalOptions.first(where: { $0.name == name }) ?? commandOptions.first(where: { $0.name == name }) else {
        if let command = parsed.command {
          throw UsageError("unknown option '\(name)' for '\(command)'", command: command)
        }
        if commands.isEmpty { throw UsageError("unknown option '\(name)'") }
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
