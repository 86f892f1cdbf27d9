/// Every `firestore` command, in help order. A new command is one more entry here.
enum CommandTable {
  /// The commands.
  static let all: [Command] = [
    GetCommand.command,
    WriteCommands.set,
    WriteCommands.create,
    WriteCommands.update,
    DeleteCommand.command,
    WriteCommands.add,
    QueryCommand.command,
    CountCommand.command,
    PipelineCommand.command,
    ListCommand.command,
    CollectionsCommand.command,
    ListenCommand.command,
    ExportCommand.command,
    ImportCommand.command,
    BundleCommand.command,
    DemoCommand.command,
  ]

  /// The commands by name.
  static let byName: [String: Command] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })

  /// `firestore --help`.
  static var overview: String {
    let width = (all.map(\.name.count).max() ?? 0) + 2
    var text = """
      usage: firestore COMMAND [ARGUMENTS] [OPTIONS]

      A command line for Firestore documents: production, the emulator, or an in-process mock.
      Output is NDJSON, one JSON object per line. Exit status: 0 success, 1 Firestore or I/O
      error (one line on stderr: error: CODE: message), 2 usage error.

      commands:

      """
    for command in all {
      text += "  " + command.name + String(repeating: " ", count: width - command.name.count) + command.summary + "\n"
    }
    text += "\nglobal options (before or after the command):\n" + HelpFormatter.list(GlobalOptions.specs)
    text += """

      Values are extended JSON: integers 5, doubles 2.0, {"$timestamp":"2024-01-02T03:04:05Z"},
      {"$bytes":"<base64>"}, {"$reference":"cities/c1"}, {"$geopoint":[lat,lng]}, {"$double":"NaN"},
      {"$vector":[0.5,1.0]}.
      Paths are slash paths from the database root: articles/a1, users/u1/favorites/f1.
      Run 'firestore COMMAND --help' for a command's options.

      """
    return text
  }
}
