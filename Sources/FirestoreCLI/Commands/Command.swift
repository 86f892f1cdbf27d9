import CommandLineSupport

/// One `firestore` subcommand: its name, help and what it does.
///
/// Commands are plain values listed in ``CommandTable``; adding one is a new value there.
struct Command: Sendable {
  /// The name typed after `firestore`.
  let name: String
  /// The usage line after the program name: `get PATH...`.
  let synopsis: String
  /// One line for the command list.
  let summary: String
  /// Further help: what it prints, examples. May be empty.
  let details: String
  /// The command's own options.
  let options: [OptionSpec]
  /// How many positional arguments it takes.
  let arguments: ClosedRange<Int>
  /// Whether, given no emulator and no credentials, it runs on an in-process mock server
  /// (as if `--mock` were given) instead of production.
  var runsOnMockByDefault = false
  /// Does the work. Usage problems throw ``UsageError``; Firestore and I/O problems
  /// throw `FirestoreError` or ``CLIFailure``.
  let run: @Sendable (CommandContext) async throws -> Void

  /// The full `--help` text.
  func help(globalOptions: [OptionSpec]) -> String {
    var text = "usage: firestore \(synopsis) [global options]\n\n\(summary)\n"
    if !details.isEmpty { text += "\n\(details)\n" }
    if !options.isEmpty { text += "\noptions:\n" + HelpFormatter.list(options) }
    text += "\nglobal options:\n" + HelpFormatter.list(globalOptions)
    return text
  }
}
