import FirestoreClient
import FirestoreWire

/// `firestore delete PATH [--must-exist]`.
enum DeleteCommand {
  static let command = Command(
    name: "delete", synopsis: "delete PATH [--must-exist]",
    summary: "Delete a document (not its subcollections). Deleting a missing document succeeds unless --must-exist.",
    details: """
      Prints {"path":…,"updateTime":…} (the commit time).

        firestore delete articles/a1 --must-exist
      """,
    options: [OptionSpec("--must-exist", help: "fail with NOT_FOUND when the document does not exist")],
    arguments: 1...1
  ) { context in
    let path = try PathArgument.document(context.positional(0), command: "delete")
    let precondition: DocumentPrecondition? = context.arguments.has("--must-exist") ? .exists(true) : nil
    let result = try await context.db.document(path).delete(precondition: precondition)
    context.emit(WriteCommands.written(path, result))
  }
}
