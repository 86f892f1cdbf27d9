import FirestoreClient
import FirestoreWire

/// `firestore export COLLECTION [--recursive] [--output FILE]`.
enum ExportCommand {
  static let command = Command(
    name: "export", synopsis: "export COLLECTION [--recursive] [--output FILE]",
    summary: "Write every document of a collection as NDJSON lines with full paths (for import).",
    details: """
      Lines are document lines as 'get' prints them, in path order, data keys sorted, so two
      exports of the same data are identical apart from the server's createTime/updateTime.
      With --recursive, subcollections follow (also those under missing documents).
      A progress line appears on standard error only when it is a terminal (and the
      documents do not go to the same terminal).

        firestore export users --recursive --output users.ndjson
      """,
    options: [
      OptionSpec("--recursive", help: "include subcollections, at any depth"),
      OptionSpec("--output", "FILE", help: "write to FILE instead of standard output"),
    ],
    arguments: 1...1
  ) { context in
    let path = try PathArgument.collection(context.positional(0), command: "export")
    let file = context.arguments.value("--output")
    let output = try file.map { try LineFile(creating: $0) } ?? LineFile()
    // Documents printed to the same terminal would run into the progress line.
    let progress = ProgressLine(
      verb: "exported", enabled: StandardStreams.standardErrorIsTerminal && (file != nil || !StandardStreams.standardOutputIsTerminal))
    let recursive = context.arguments.has("--recursive")
    if progress.isEnabled && !recursive {
      progress.setTotal((try? await context.db.collection(path).count.getAggregation().count)?.intValue)
    }
    defer { progress.finish() }
    try await export(context.db.collection(path), recursive: recursive, context: context, output: output, progress: progress)
    try output.flush()
  }

  private static func export(
    _ collection: CollectionReference, recursive: Bool, context: CommandContext, output: LineFile, progress: ProgressLine
  ) async throws {
    for try await document in collection.query.stream() {
      try output.writeLine(context.encoder.line(document))
      progress.advance()
    }
    guard recursive else { return }
    // Missing documents (no data, but subcollections) are found only by listing.
    for try await reference in collection.listDocuments(pageSize: 500, showMissing: true) {
      for subcollection in try await reference.listCollections() {
        try await export(subcollection, recursive: true, context: context, output: output, progress: progress)
      }
    }
  }
}
