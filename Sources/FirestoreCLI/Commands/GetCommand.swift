import FirestoreClient

/// `firestore get PATH...`: documents by path, several through one `:batchGet`.
enum GetCommand {
  static let command = Command(
    name: "get", synopsis: "get PATH...",
    summary: "Print documents, one NDJSON line each, in the order given.",
    details: """
      Several paths are read in one batchGet. A missing document prints {"path":…,"exists":false}.

        firestore get articles/a1
        firestore get users/u1 users/u2 --format rest
      """,
    options: [], arguments: 1...Int.max
  ) { context in
    let paths = try context.arguments.positionals.map { try PathArgument.document($0, command: "get") }
    let references = paths.map { context.db.document($0) }
    if references.count == 1 {
      context.emit(context.encoder.line(try await references[0].getDocument()))
    } else {
      for snapshot in try await context.db.getAll(references) { context.emit(context.encoder.line(snapshot)) }
    }
  }
}
