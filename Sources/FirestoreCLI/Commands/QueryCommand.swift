import CommandLineSupport
import FirestoreClient
import FirestoreWire

/// `firestore query COLLECTION [query options] [vector search] [--explain [--analyze]]`:
/// documents stream out as they arrive.
enum QueryCommand {
  static let command = Command(
    name: "query", synopsis: "query COLLECTION [query options] [--find-nearest FIELD --vector JSON --distance D] [--explain [--analyze]]",
    summary: "Run a query; matching documents print one NDJSON line each, as they arrive.",
    details: """
      VALUE, cursor values and DATA are extended JSON: strings need double quotes.
      With --ids each line is only {"path":…}.
      --find-nearest runs a vector search over the filtered documents: the --limit nearest
      (1 to 1000) by --distance, closest first; it takes no ordering, cursor or offset.
      --explain prints Firestore's plan as {"explain":{"indexesUsed":[…]}}; with --analyze
      the query also runs, its documents print first and the last line adds
      "executionStats" (results, reads, duration). The emulator does not explain queries.

        firestore query articles --where 'category == "swift"' --order-by publishedAt:desc --limit 10
        firestore query articles --where 'tags array-contains-any ["a","b"]' --or 'views > 100' --or 'pinned == true'
        firestore query favorites --group --ids
        firestore query beans --find-nearest embedding --vector '[0.1,0.9]' --distance cosine --limit 5
        firestore query articles --where 'category == "swift"' --explain --analyze
      """,
    options: QueryOptions.specs + VectorSearchOptions.specs + [
      OptionSpec(OptionName.explain, help: "print Firestore's plan for the query (and with --analyze its statistics)"),
      OptionSpec(OptionName.analyze, help: "with --explain: also run the query and print its documents and statistics"),
    ],
    arguments: 1...1
  ) { context in
    let arguments = context.arguments
    if arguments.has(OptionName.analyze) && !arguments.has(OptionName.explain) { throw context.usage("--analyze needs --explain") }
    let target = context.positional(0)
    if let search = try VectorSearchOptions.search(context, target: target) {
      if arguments.has(OptionName.explain) {
        try await explain(context) { try await search.explain(options: $0) }
      } else {
        for document in try await search.getDocuments().documents { emit(document, context) }
      }
      return
    }
    let query = try QueryOptions.query(context, target: target)
    if arguments.has(OptionName.explain) {
      try await explain(context) { try await query.explain(options: $0) }
      return
    }
    for try await document in query.stream() { emit(document, context) }
  }

  /// Prints an explained query's documents (with --analyze) and then its explanation.
  private static func explain(
    _ context: CommandContext, _ run: (ExplainOptions) async throws -> ExplainResults<QuerySnapshot>
  ) async throws {
    let explained = try await run(ExplainOptions(analyze: context.arguments.has(OptionName.analyze)))
    for document in explained.snapshot?.documents ?? [] { emit(document, context) }
    context.emit(.object([("explain", ExplainOutput.json(explained.metrics))]))
  }

  private static func emit(_ document: QueryDocumentSnapshot, _ context: CommandContext) {
    if context.arguments.has(OptionName.ids) {
      context.emit(.object([("path", .string(document.reference.path))]))
    } else {
      context.emit(context.encoder.line(document))
    }
  }
}
