import CommandLineSupport
import FirestoreClient
import FirestoreWire

/// `set`, `create`, `update` and `add`: write one document from JSON data.
///
/// Each prints `{"path":…,"updateTime":…}` for the written document.
enum WriteCommands {
  private static let dataHelp = """
    DATA is a JSON object in extended JSON (see 'firestore --help'), '-' to read it from
    standard input, or @FILE. Transforms are values like {"$serverTimestamp":true},
    {"$increment":1}, {"$arrayUnion":[…]}, {"$arrayRemove":[…]}, {"$maximum":n}, {"$minimum":n}.
    With --input-format rest, DATA maps field names to REST values ({"n":{"integerValue":"5"}}).
    """

  static let set = Command(
    name: "set", synopsis: "set PATH DATA [--merge | --merge-fields a,b.c]",
    summary: "Write a document, replacing it (or merging into it).",
    details: """
      \(dataHelp)

        firestore set articles/a1 '{"title":"Hello","views":0}'
        firestore set articles/a1 '{"views":{"$increment":1}}' --merge
      """,
    options: [
      OptionSpec(OptionName.merge, help: "merge into the existing document instead of replacing it"),
      OptionSpec(OptionName.mergeFields, "a,b.c", help: "merge only these field paths"),
    ],
    arguments: 2...2
  ) { context in
    let path = try PathArgument.document(context.positional(0), command: "set")
    let data = try context.writeData(context.positional(1))
    let reference = context.db.document(path)
    let result: WriteResult
    if let fields = context.arguments.value(OptionName.mergeFields) {
      guard !context.arguments.has(OptionName.merge) else { throw context.usage("--merge and --merge-fields cannot be combined") }
      let paths = try fields.split(separator: ",", omittingEmptySubsequences: false).map {
        try WhereClause.fieldPath(String($0), option: OptionName.mergeFields, context: context)
      }
      result = try await reference.setData(data, mergeFields: paths)
    } else {
      result = try await reference.setData(data, merge: context.arguments.has(OptionName.merge))
    }
    context.emit(written(path, result))
  }

  static let create = Command(
    name: "create", synopsis: "create PATH DATA",
    summary: "Create a document; fails with ALREADY_EXISTS if it exists.",
    details: """
      \(dataHelp)

        firestore create users/u1 '{"name":"Ada","joined":{"$serverTimestamp":true}}'
      """,
    options: [], arguments: 2...2
  ) { context in
    let path = try PathArgument.document(context.positional(0), command: "create")
    let data = try context.writeData(context.positional(1))
    context.emit(written(path, try await context.db.document(path).create(data)))
  }

  static let update = Command(
    name: "update", synopsis: "update PATH DATA",
    summary: "Update fields of an existing document; fails with NOT_FOUND if it is missing.",
    details: """
      Keys of DATA are field paths ("address.city"); {"$delete":true} removes a field.
      \(dataHelp)

        firestore update users/u1 '{"address.city":"Paris","visits":{"$increment":1},"draft":{"$delete":true}}'
      """,
    options: [], arguments: 2...2
  ) { context in
    let path = try PathArgument.document(context.positional(0), command: "update")
    let data = try context.writeData(context.positional(1))
    guard !data.isEmpty else { throw context.usage("update needs at least one field in DATA") }
    context.emit(written(path, try await context.db.document(path).updateData(data)))
  }

  static let add = Command(
    name: "add", synopsis: "add COLLECTION DATA",
    summary: "Add a document with a generated ID; prints {\"path\":…} of the new document.",
    details: """
      \(dataHelp)

        firestore add articles '{"title":"Hello"}'
      """,
    options: [], arguments: 2...2
  ) { context in
    let collection = try PathArgument.collection(context.positional(0), command: "add")
    let data = try context.writeData(context.positional(1))
    let reference = try await context.db.collection(collection).addDocument(data: data)
    context.emit(.object([("path", .string(reference.path))]))
  }

  /// The line printed for a written document.
  static func written(_ path: String, _ result: WriteResult) -> JSONValue {
    .object([("path", .string(path)), ("updateTime", .string(result.updateTime.rfc3339))])
  }
}
