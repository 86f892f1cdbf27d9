import CommandLineSupport
import FirestoreClient
import FirestorePlatform
import FirestoreWire

/// What a running command has at hand: its arguments, the global options, the connection
/// and the encoders of the chosen formats.
final class CommandContext: Sendable {
  /// The command being run.
  let command: Command
  /// The parsed command line.
  let arguments: ParsedArguments
  /// The global options.
  let globals: GlobalOptions
  /// The client (and mock server).
  let connection: Connection

  init(command: Command, arguments: ParsedArguments, globals: GlobalOptions, connection: Connection) {
    self.command = command
    self.arguments = arguments
    self.globals = globals
    self.connection = connection
  }

  /// The Firestore client.
  var db: Firestore { connection.firestore }

  /// Output in the `--format` format.
  var encoder: DocumentEncoder { DocumentEncoder(format: globals.format, documentsRoot: connection.documentsRoot) }

  /// Input in the `--input-format` format.
  var decoder: InputDecoder { InputDecoder(format: globals.inputFormat, documentsRoot: connection.documentsRoot) }

  /// A usage error of this command.
  func usage(_ message: String) -> UsageError { UsageError(message, command: command.name) }

  /// Positional argument `index` (its presence is checked before the command runs).
  func positional(_ index: Int) -> String { arguments.positionals[index] }

  /// Prints one NDJSON line.
  func emit(_ json: JSONValue) { StandardStreams.writeLine(json) }

  /// Document data given as an argument: JSON text, `-` for standard input, or `@FILE`.
  func writeData(_ argument: String, what: String = "DATA") throws -> [String: any Sendable] {
    var text = argument
    var source = "\(what) '\(DisplayText.excerpt(argument))'"
    if argument == "-" || argument.hasPrefix("@") {
      let reader = argument == "-" ? LineReader() : try LineReader(path: String(argument.dropFirst()))
      var lines: [String] = []
      while let line = try reader.nextLine() { lines.append(line) }
      text = lines.joined(separator: "\n")
      source = "\(what) from \(reader.name)"
    }
    let json = try InputDecoder.parseJSON(text, what: source)
    do {
      return try decoder.writeData(json)
    } catch {
      throw usage("\(source): \(error)")
    }
  }
}
