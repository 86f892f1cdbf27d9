import FirestoreClient
import FirestoreWire

/// `firestore query COLLECTION [query options]`: documents stream out as they arrive.
enum QueryCommand {
  static let command = Command(
    name: "query", synopsis: "query COLLECTION [query options]",
    summary: "Run a query; matching documents print one NDJSON line each, as they arrive.",
    details: """
      VALUE, cursor values and DATA are extended JSON: strings need double quotes.
      With --ids each line is only {"path":…}.

        firestore query articles --where 'category == "swift"' --order-by publishedAt:desc --limit 10
        firestore query articles --where 'tags array-contains-any ["a","b"]' --or 'views > 100' --or 'pinned == true'
        firestore query favorites --group --ids
      """,
    options: QueryOptions.specs, arguments: 1...1
  ) { context in
    let query = try QueryOptions.query(context, target: context.positional(0))
    let idsOnly = context.arguments.has("--ids")
    for try await document in query.stream() {
      if idsOnly {
        context.emit(.object([("path", .string(document.reference.path))]))
      } else {
        context.emit(context.encoder.line(document))
      }
    }
  }
}
