import CommandLineSupport
import FirestoreClient
import FirestoreWire
import Foundation

/// `firestore count COLLECTION [query options] [--sum FIELD]... [--avg FIELD]...`.
enum CountCommand {
  static let command = Command(
    name: "count", synopsis: "count COLLECTION [query options] [--sum FIELD]... [--avg FIELD]...",
    summary: "Count the documents a query matches, with sums and averages; prints one object.",
    details: """
      Prints {"count":N,"sum(FIELD)":x,"avg(FIELD)":y}; an average over no numbers is null.

        firestore count orders --where 'status == "open"' --sum total --avg total
      """,
    options: QueryOptions.specs + [
      OptionSpec(OptionName.sum, "FIELD", repeatable: true, help: "also sum FIELD"),
      OptionSpec(OptionName.avg, "FIELD", repeatable: true, help: "also average FIELD"),
    ],
    arguments: 1...1
  ) { context in
    let query = try QueryOptions.query(context, target: context.positional(0))
    var fields: [(String, AggregateField)] = [("count", .count())]
    for field in context.arguments.values(OptionName.sum) {
      fields.append(("sum(\(field))", .sum(try WhereClause.fieldPath(field, option: OptionName.sum, context: context))))
    }
    for field in context.arguments.values(OptionName.avg) {
      fields.append(("avg(\(field))", .average(try WhereClause.fieldPath(field, option: OptionName.avg, context: context))))
    }
    let snapshot = try await query.aggregate(fields.map(\.1)).getAggregation()
    var members: [(String, JSONValue)] = []
    for (label, field) in fields where !members.contains(where: { $0.0 == label }) {
      members.append((label, context.encoder.value(snapshot.value(for: field) ?? .null)))
    }
    context.emit(.object(members))
  }
}
