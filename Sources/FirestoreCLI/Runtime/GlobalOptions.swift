import Foundation

/// The options every command accepts, before or after the command name.
struct GlobalOptions: Sendable {
  /// Their specs, for parsing and help.
  static let specs: [OptionSpec] = [
    OptionSpec("--project", "ID", help: "project ID (else FIRESTORE_PROJECT, GOOGLE_CLOUD_PROJECT, GCLOUD_PROJECT)"),
    OptionSpec("--database", "ID", help: "database ID (default: (default))"),
    OptionSpec("--emulator", "HOST:PORT", help: "use the emulator at HOST:PORT (else FIRESTORE_EMULATOR_HOST)"),
    OptionSpec("--mock", help: "run against an in-process mock server started for this command"),
    OptionSpec("--mock-data", "FILE", help: "with --mock: preload the NDJSON documents of FILE (as export writes them)"),
    OptionSpec("--credentials", "FILE", help: "service account key file (production; an emulator only takes its project ID)"),
    OptionSpec("--format", "json|rest", help: "output values as extended JSON (default) or Firestore's REST mapping"),
    OptionSpec("--input-format", "json|rest", help: "input values as extended JSON (default) or Firestore's REST mapping"),
    OptionSpec("--help", help: "show help (also -h)"),
  ]

  /// `--project`.
  var project: String?
  /// `--database`.
  var database = "(default)"
  /// `--emulator`, else `FIRESTORE_EMULATOR_HOST`.
  var emulatorHost: String?
  /// `--mock`.
  var mock = false
  /// `--mock-data`.
  var mockData: String?
  /// `--credentials`.
  var credentials: String?
  /// `--format`.
  var format = DataFormat.json
  /// `--input-format`.
  var inputFormat = DataFormat.json

  /// Reads the global options out of a parsed command line and the environment.
  init(_ arguments: ParsedArguments, environment: [String: String]) throws(UsageError) {
    project = arguments.value("--project")
    if let project, project.isEmpty { throw UsageError("--project must not be empty") }
    if let database = arguments.value("--database") {
      guard !database.isEmpty else { throw UsageError("--database must not be empty") }
      self.database = database
    }
    mock = arguments.has("--mock")
    mockData = arguments.value("--mock-data")
    if mockData != nil, !mock { throw UsageError("--mock-data needs --mock") }
    credentials = arguments.value("--credentials")
    if let host = arguments.value("--emulator") {
      guard Self.isHostAndPort(host) else { throw UsageError("--emulator needs HOST:PORT, got '\(host)'") }
      if mock { throw UsageError("--emulator and --mock cannot be combined") }
      emulatorHost = host
    } else if !mock, let host = environment["FIRESTORE_EMULATOR_HOST"]?.trimmingCharacters(in: .whitespaces), !host.isEmpty {
      emulatorHost = host
    }
    if let text = arguments.value("--format") { format = try DataFormat.parse(text, option: "--format") }
    if let text = arguments.value("--input-format") { inputFormat = try DataFormat.parse(text, option: "--input-format") }
  }

  private static func isHostAndPort(_ text: String) -> Bool {
    guard let colon = text.lastIndex(of: ":"), colon != text.startIndex, let port = Int(text[text.index(after: colon)...]) else {
      return false
    }
    return (1...65_535).contains(port)
  }
}
