import FirestoreClient
import FirestoreWire

/// `firestore import [--input FILE]`.
enum ImportCommand {
  static let command = Command(
    name: "import", synopsis: "import [--input FILE]",
    summary: "Write NDJSON document lines (as export prints them) through a bulk writer.",
    details: """
      Reads standard input unless --input is given. Each line is a full set of the document
      at its "path", so re-running an import is safe. A line's "data" is extended JSON and
      its "fields" REST mapping; lines with "exists":false are skipped. Writes go 20 per
      request, several at once, retried when the server asks (paced by Firestore's 500/50/5
      ramp-up against production). A bad line stops the import and is named; the lines
      before it are written.
      Prints {"written":N,"skipped":M}. A progress line (with an ETA for files) appears on
      standard error only when it is a terminal.

        firestore import --input users.ndjson
        firestore export users | firestore --project other import
      """,
    options: [OptionSpec("--input", "FILE", help: "read FILE instead of standard input")],
    arguments: 0...0
  ) { context in
    let file = context.arguments.value("--input")
    let reader = try file.map { try LineReader(path: $0) } ?? LineReader()
    let progress = ProgressLine(verb: "imported")
    if progress.isEnabled, let file { progress.setTotal(LineReader.countLines(path: file)) }
    defer { progress.finish() }
    let importer = DocumentImporter(
      firestore: context.db, documentsRoot: context.connection.documentsRoot, rampsUp: !context.connection.isEmulated)
    let outcome = try await importer.run(reader, progress: progress)
    progress.finish()
    context.emit(.object([("written", .integer(Int64(outcome.written))), ("skipped", .integer(Int64(outcome.skipped)))]))
  }
}
