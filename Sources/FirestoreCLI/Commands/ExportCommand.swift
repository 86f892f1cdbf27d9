import CommandLineSupport
import FirestoreClient
import FirestoreWire
import Foundation

/// `firestore export COLLECTION [--recursive] [--partitions N] [--output FILE]`.
enum ExportCommand {
  static let command = Command(
    name: "export", synopsis: "export COLLECTION [--recursive] [--partitions N] [--output FILE]",
    summary: "Write every document of a collection as NDJSON lines with full paths (for import).",
    details: """
      Lines are document lines as 'get' prints them, in path order, data keys sorted, so two
      exports of the same data are identical apart from the server's createTime/updateTime.
      With --recursive, subcollections follow (also those under missing documents).
      With --partitions N, the collection's documents are read as up to N ranges at once,
      split where Firestore's partitionQuery splits the collection group of the same ID;
      the output is the same, in the same order. The emulator has no partitionQuery.
      A progress line appears on standard error only when it is a terminal (and the
      documents do not go to the same terminal).

        firestore export users --recursive --output users.ndjson
        firestore export events --partitions 8 --output events.ndjson
      """,
    options: [
      OptionSpec(OptionName.recursive, help: "include subcollections, at any depth"),
      OptionSpec(OptionName.partitions, "N", help: "read the collection's documents as up to N ranges in parallel"),
      OptionSpec(OptionName.output, "FILE", help: "write to FILE instead of standard output"),
    ],
    arguments: 1...1
  ) { context in
    let path = try PathArgument.collection(context.positional(0), command: "export")
    let partitions = try context.arguments.integer(OptionName.partitions, command: "export")
    if partitions == 0 { throw context.usage("--partitions needs at least 1") }
    let file = context.arguments.value(OptionName.output)
    let output = try file.map { try LineFile(creating: $0) } ?? LineFile()
    // Documents printed to the same terminal would run into the progress line.
    let progress = ProgressLine(
      verb: "exported", enabled: StandardStreams.standardErrorIsTerminal && (file != nil || !StandardStreams.standardOutputIsTerminal))
    let recursive = context.arguments.has(OptionName.recursive)
    if progress.isEnabled && !recursive {
      progress.setTotal((try? await context.db.collection(path).count.getAggregation().count)?.intValue)
    }
    defer { progress.finish() }
    let collection = context.db.collection(path)
    if let partitions, partitions > 1 {
      try await PartitionedExport(collection: collection, context: context).run(partitions, output: output, progress: progress)
    } else {
      try await exportDocuments(collection, context: context, output: output, progress: progress)
    }
    if recursive { try await exportSubcollections(collection, context: context, output: output, progress: progress) }
    try output.flush()
  }

  /// The collection's own documents, in path order.
  private static func exportDocuments(
    _ collection: CollectionReference, context: CommandContext, output: LineFile, progress: ProgressLine
  ) async throws {
    for try await document in collection.query.stream() {
      try output.writeLine(context.encoder.line(document))
      progress.advance()
    }
  }

  /// The collections below the collection's documents, each exported recursively.
  private static func exportSubcollections(
    _ collection: CollectionReference, context: CommandContext, output: LineFile, progress: ProgressLine
  ) async throws {
    // Missing documents (no data, but subcollections) are found only by listing.
    for try await reference in collection.listDocuments(pageSize: 500, showMissing: true) {
      for subcollection in try await reference.listCollections() {
        try await exportDocuments(subcollection, context: context, output: output, progress: progress)
        try await exportSubcollections(subcollection, context: context, output: output, progress: progress)
      }
    }
  }
}
