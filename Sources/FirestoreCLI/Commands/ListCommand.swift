import CommandLineSupport
import FirestoreClient
import FirestoreWire

/// `firestore list COLLECTION [--show-missing]`.
enum ListCommand {
  static let command = Command(
    name: "list", synopsis: "list COLLECTION [--show-missing]",
    summary: "List the document paths of a collection, one {\"path\":…} line each (paginated).",
    details: """
      With --show-missing, also paths that hold no document but have subcollections.

        firestore list users --show-missing
      """,
    options: [OptionSpec(OptionName.showMissing, help: "include missing documents that have subcollections")],
    arguments: 1...1
  ) { context in
    let path = try PathArgument.collection(context.positional(0), command: "list")
    for try await reference in context.db.collection(path).listDocuments(showMissing: context.arguments.has(OptionName.showMissing)) {
      context.emit(.object([("path", .string(reference.path))]))
    }
  }
}
