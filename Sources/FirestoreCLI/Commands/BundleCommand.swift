import CommandLineSupport
import FirestoreClient
import FirestoreWire
import Foundation

/// `firestore bundle ID [COLLECTION [query options] [--query-name NAME]] [--document PATH]... [--output FILE]`.
enum BundleCommand {
  static let command = Command(
    name: "bundle", synopsis: "bundle ID [COLLECTION [query options] [--query-name NAME]] [--document PATH]... [--output FILE]",
    summary: "Build a Firestore bundle from a query's results and documents, for clients to load into their cache.",
    details: """
      The query over COLLECTION (with the query options of 'query') is run and saved in
      the bundle under --query-name (default: COLLECTION), with its documents; each
      --document is read and added. Clients load the bundle with loadBundle and run the
      query by name from their cache. Queries with --select, --ids or --offset cannot be
      bundled (clients refuse them).
      The bundle goes to standard output, or to --output FILE, and then
      {"bundle":ID,"queries":N,"documents":N,"bytes":N} is printed.

        firestore bundle latest-stories stories --order-by publishedAt:desc --limit 20 \\
          --query-name latest --document config/app --output latest.bundle
      """,
    options: QueryOptions.specs + [
      OptionSpec(OptionName.queryName, "NAME", help: "the name clients look the query up by (default: COLLECTION)"),
      OptionSpec(OptionName.document, "PATH", repeatable: true, help: "also add this document"),
      OptionSpec(OptionName.output, "FILE", help: "write the bundle to FILE instead of standard output"),
    ],
    arguments: 1...2
  ) { context in
    let arguments = context.arguments
    var builder = context.db.bundle(context.positional(0))
    if arguments.positionals.count > 1 {
      let target = context.positional(1)
      let query = try QueryOptions.query(context, target: target)
      try builder.add(queryName: arguments.value(OptionName.queryName) ?? target, querySnapshot: try await query.getDocuments())
    } else if QueryOptions.anyGiven(arguments) || arguments.has(OptionName.queryName) || arguments.has(OptionName.group) {
      throw context.usage("query options need a COLLECTION after the bundle ID")
    }
    let documents = try arguments.values(OptionName.document).map { try PathArgument.document($0, command: "bundle") }
    if arguments.positionals.count == 1 && documents.isEmpty {
      throw context.usage("a bundle needs a COLLECTION to query or at least one --document")
    }
    // getAll reads with a read time, which a bundle records for each document.
    for snapshot in try await context.db.getAll(documents.map { context.db.document($0) }) { try builder.add(document: snapshot) }
    let bundle = builder.build()
    guard let file = arguments.value(OptionName.output) else {
      StandardStreams.writeBytes(Array(bundle))
      return
    }
    guard FileManager.default.createFile(atPath: file, contents: bundle) else {
      throw CLIFailure("UNKNOWN", "cannot write '\(file)'")
    }
    var reader = BundleReader(Array(bundle))
    var queries = 0
    var total: Int64 = 0
    while let (element, _) = try reader.next() {
      switch element {
      case .metadata(let metadata): total = Int64(metadata.totalDocuments)
      case .namedQuery: queries += 1
      default: break
      }
    }
    context.emit(
      .object([
        ("bundle", .string(context.positional(0))), ("queries", .integer(Int64(queries))), ("documents", .integer(total)),
        ("bytes", .integer(Int64(bundle.count))),
      ]))
  }
}
