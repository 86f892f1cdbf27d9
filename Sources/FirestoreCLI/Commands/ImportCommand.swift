import CommandLineSupport
import FirestoreClient
import FirestoreWire
import Foundation

/// `firestore import [--input FILE | --bundle FILE]`.
enum ImportCommand {
  static let command = Command(
    name: "import", synopsis: "import [--input FILE | --bundle FILE]",
    summary: "Write NDJSON document lines (as export prints them), or a bundle's documents, through a bulk writer.",
    details: """
      Reads standard input unless --input is given. Each line is a full set of the document
      at its "path", so re-running an import is safe. A line's "data" is extended JSON and
      its "fields" REST mapping; lines with "exists":false are skipped. Writes go 20 per
      request, several at once, retried when the server asks (paced by Firestore's 500/50/5
      ramp-up against production). A bad line stops the import and is named; the lines
      before it are written.
      With --bundle, the documents of a Firestore bundle (as 'bundle' builds it) are
      written to their paths in this database; documents it reports missing are skipped.
      Prints {"written":N,"skipped":M}. A progress line (with an ETA for files) appears on
      standard error only when it is a terminal.

        firestore import --input users.ndjson
        firestore export users | firestore --project other import
        firestore import --bundle stories.bundle
      """,
    options: [
      OptionSpec(OptionName.input, "FILE", help: "read FILE instead of standard input"),
      OptionSpec(OptionName.bundle, "FILE", help: "write the documents of the Firestore bundle FILE"),
    ],
    arguments: 0...0
  ) { context in
    let file = context.arguments.value(OptionName.input)
    let bundle = context.arguments.value(OptionName.bundle)
    if file != nil && bundle != nil { throw context.usage("--input and --bundle cannot be combined") }
    let progress = ProgressLine(verb: "imported")
    defer { progress.finish() }
    let importer = DocumentImporter(
      firestore: context.db, documentsRoot: context.connection.documentsRoot, rampsUp: !context.connection.isEmulated)
    let outcome: DocumentImporter.Outcome
    if let bundle {
      guard let data = FileManager.default.contents(atPath: bundle) else {
        throw CLIFailure("NOT_FOUND", "cannot read bundle '\(bundle)'")
      }
      outcome = try await importer.run(bundle: Array(data), name: bundle, progress: progress)
    } else {
      let reader = try file.map { try LineReader(path: $0) } ?? LineReader()
      if progress.isEnabled, let file { progress.setTotal(LineReader.countLines(path: file)) }
      outcome = try await importer.run(reader, progress: progress)
    }
    progress.finish()
    context.emit(.object([("written", .integer(Int64(outcome.written))), ("skipped", .integer(Int64(outcome.skipped)))]))
  }
}
