import FirestoreClient
import FirestoreWire

/// `firestore collections [DOCUMENT]`.
enum CollectionsCommand {
  static let command = Command(
    name: "collections", synopsis: "collections [DOCUMENT]",
    summary: "List the top-level collections, or a document's subcollections: {\"id\":…,\"path\":…} each.",
    details: """
        firestore collections
        firestore collections users/u1
      """,
    options: [], arguments: 0...1
  ) { context in
    let collections: [CollectionReference]
    if context.arguments.positionals.isEmpty {
      collections = try await context.db.listCollections()
    } else {
      let path = try PathArgument.document(context.positional(0), command: "collections")
      collections = try await context.db.document(path).listCollections()
    }
    for collection in collections {
      context.emit(.object([("id", .string(collection.collectionID)), ("path", .string(collection.path))]))
    }
  }
}
