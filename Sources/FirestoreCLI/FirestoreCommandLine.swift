import CommandLineSupport
import FirestoreClient
import FirestorePlatform
import Foundation

/// The `firestore` program: parses the command line, runs a command, and maps the outcome
/// to the exit status scripts rely on.
///
/// - 0: success.
/// - 1: a Firestore or I/O error; one line on standard error, `error: NOT_FOUND: <message>`.
/// - 2: a usage error (unknown command or option, bad operator, malformed JSON, bad path);
///   `error: <message>` on standard error, with a pointer to `--help`.
enum FirestoreCommandLine {
  /// Success.
  static let success: Int32 = 0
  /// A Firestore or I/O failure.
  static let failure: Int32 = 1
  /// A usage error.
  static let usageError: Int32 = 2
  /// The environment variables libcurl takes a proxy from.
  private static let proxyVariables = ["https_proxy", "HTTPS_PROXY", "http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY"]
  /// What the process holds that no message may show: the `--token` given, the proxies'
  /// user names and passwords.
  private static let secrets = Locked<[String]>([])

  /// Runs the program on `arguments` (without the program name) and returns the exit status.
  static func run(_ arguments: [String], environment: [String: String]) async -> Int32 {
    // `firestore help [COMMAND]` is `firestore [COMMAND] --help`.
    if arguments.first == "help" { return await run(Array(arguments.dropFirst()) + [OptionName.help], environment: environment) }
    let parser = ArgumentParser(globalOptions: GlobalOptions.specs, commands: CommandTable.byName.mapValues(\.options))
    var parsed: ParsedArguments
    do {
      parsed = try parser.parse(arguments)
    } catch {
      return report(error)
    }
    // The token and the proxies' passwords, which a message could quote.
    let proxies = ([parsed.value(OptionName.proxy)] + Self.proxyVariables.map { environment[$0] }).compactMap { $0 }
    var held = proxies.flatMap(DisplayText.credentials(of:))
    if let token = parsed.value(OptionName.token) { held.append(token.trimmingCharacters(in: .whitespacesAndNewlines)) }
    secrets.withLock { $0 += held }
    guard let name = parsed.command, let command = CommandTable.byName[name] else {
      if parsed.wantsHelp {
        StandardStreams.writeOutput(CommandTable.overview)
        return success
      }
      if arguments.isEmpty {
        // No command at all: the overview, on stderr since it is a usage error.
        StandardStreams.writeError(CommandTable.overview)
        return usageError
      }
      return report(UsageError("no command given (see 'firestore --help')"))
    }
    if parsed.wantsHelp {
      StandardStreams.writeOutput(command.help(globalOptions: GlobalOptions.specs))
      return success
    }
    guard command.arguments.contains(parsed.positionals.count) else {
      return report(
        UsageError(
          "'\(name)' takes \(describe(command.arguments)), got \(parsed.positionals.count): usage: firestore \(command.synopsis)",
          command: name))
    }
    var globals: GlobalOptions
    do {
      globals = try GlobalOptions(parsed, environment: environment)
    } catch {
      return report(UsageError(error.message, command: name))
    }
    if command.runsOnMockByDefault && globals.emulatorHost == nil && globals.credentials == nil { globals.mock = true }
    let connection: Connection
    do {
      connection = try await Connection.open(globals, environment: environment)
    } catch {
      return report(error, command: name)
    }
    let status: Int32
    do {
      try await command.run(CommandContext(command: command, arguments: parsed, globals: globals, connection: connection))
      status = success
    } catch {
      status = report(error, command: name)
    }
    await connection.close()
    return status
  }

  /// Prints the one-line error for `error` and returns its exit status.
  static func report(_ error: any Error, command: String? = nil) -> Int32 {
    switch error {
    case var usage as UsageError:
      if usage.command == nil { usage.command = command }
      let hint = usage.command.map { "firestore \($0) --help" } ?? "firestore --help"
      StandardStreams.writeError("error: \(oneLine(usage.message)) (see '\(hint)')\n")
      return usageError
    case let error as FirestoreError:
      StandardStreams.writeError("error: \(error.code.statusName): \(oneLine(error.message))\n")
      return failure
    case let error as CLIFailure:
      StandardStreams.writeError("error: \(error.code): \(oneLine(error.message))\n")
      return failure
    default:
      StandardStreams.writeError("error: UNKNOWN: \(oneLine(String(describing: error)))\n")
      return failure
    }
  }

  /// `text` on one line, as it may be shown: whatever reaches the terminal passes
  /// through ``DisplayText``, since messages quote servers, files and arguments.
  private static func oneLine(_ text: String) -> String {
    DisplayText.sanitize(text.split(whereSeparator: \.isNewline).joined(separator: " "), secrets: secrets.withLock { $0 })
  }

  private static func describe(_ range: ClosedRange<Int>) -> String {
    if range.lowerBound == range.upperBound { return range.lowerBound == 1 ? "1 argument" : "\(range.lowerBound) arguments" }
    if range.upperBound == Int.max { return "at least \(range.lowerBound) argument\(range.lowerBound == 1 ? "" : "s")" }
    return "\(range.lowerBound) to \(range.upperBound) arguments"
  }
}
