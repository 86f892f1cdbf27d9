import CommandLineSupport
import FirestoreClient
import FirestorePlatform
import FirestoreWire

/// `firestore delete PATH [--must-exist | --recursive]`.
enum DeleteCommand {
  static let command = Command(
    name: "delete", synopsis: "delete PATH [--must-exist | --recursive]",
    summary: "Delete a document (not its subcollections), or with --recursive a document or collection and all below it.",
    details: """
      Prints {"path":…,"updateTime":…} (the commit time). Deleting a missing document
      succeeds unless --must-exist.
      With --recursive, PATH may also be a collection: every document below it, at any
      depth (also under missing documents), is deleted through a bulk writer, and then
      the document itself. Prints {"path":…,"deleted":N}.

        firestore delete articles/a1 --must-exist
        firestore delete users/u1 --recursive
      """,
    options: [
      OptionSpec(OptionName.mustExist, help: "fail with NOT_FOUND when the document does not exist"),
      OptionSpec(OptionName.recursive, help: "also delete every document below PATH (a document or a collection)"),
    ],
    arguments: 1...1
  ) { context in
    if context.arguments.has(OptionName.recursive) {
      try await deleteRecursively(context)
      return
    }
    let path = try PathArgument.document(context.positional(0), command: "delete")
    let precondition: DocumentPrecondition? = context.arguments.has(OptionName.mustExist) ? .exists(true) : nil
    let result = try await context.db.document(path).delete(precondition: precondition)
    context.emit(WriteCommands.written(path, result))
  }

  private static func deleteRecursively(_ context: CommandContext) async throws {
    if context.arguments.has(OptionName.mustExist) { throw context.usage("--must-exist and --recursive cannot be combined") }
    let path = try PathArgument.any(context.positional(0), command: "delete")
    let writer = context.db.bulkWriter(options: context.connection.isEmulated ? .unlimited : BulkWriterOptions())
    let deleted = Locked(0)
    writer.onWriteResult { _, _ in deleted.withLock { $0 += 1 } }
    if path.isDocument {
      try await context.db.recursiveDelete(context.db.document(path.text), bulkWriter: writer)
    } else {
      try await context.db.recursiveDelete(context.db.collection(path.text), bulkWriter: writer)
    }
    await writer.close()
    context.emit(.object([("path", .string(path.text)), ("deleted", .integer(Int64(deleted.withLock { $0 })))]))
  }
}
