import CommandLineSupport
import FirestoreClient
import FirestorePlatform
import FirestoreWire

/// The query options shared by `query`, `count` and `listen`, and the ``Query`` they build.
enum QueryOptions {
  /// The specs, in help order.
  static let specs: [OptionSpec] = [
    OptionSpec(
      OptionName.where, "'FIELD OP VALUE'", repeatable: true, help: "filter; all --where are ANDed (OP: \(WhereClause.operatorList))"),
    OptionSpec(
      OptionName.or, "'FIELD OP VALUE'", repeatable: true, help: "filter; all --or form one OR group, ANDed with the --where filters"),
    OptionSpec(OptionName.orderBy, "FIELD[:desc]", repeatable: true, help: "order by FIELD, ascending unless :desc"),
    OptionSpec(OptionName.limit, "N", help: "at most N documents"),
    OptionSpec(OptionName.limitToLast, "N", help: "the last N documents of the order"),
    OptionSpec(OptionName.offset, "N", help: "skip the first N documents"),
    OptionSpec(OptionName.startAt, "JSON_ARRAY", help: "cursor: start at these order-by values"),
    OptionSpec(OptionName.startAfter, "JSON_ARRAY", help: "cursor: start after these order-by values"),
    OptionSpec(OptionName.endAt, "JSON_ARRAY", help: "cursor: end at these order-by values"),
    OptionSpec(OptionName.endBefore, "JSON_ARRAY", help: "cursor: end before these order-by values"),
    OptionSpec(OptionName.select, "f1,f2", help: "return only these fields"),
    OptionSpec(OptionName.ids, help: "return document paths only (ID-only projection)"),
    OptionSpec(OptionName.group, help: "COLLECTION is a collection-group ID: every collection with that ID"),
  ]

  /// Whether any query option (other than `--group`) was given.
  static func anyGiven(_ arguments: ParsedArguments) -> Bool {
    specs.contains { $0.name != OptionName.group && arguments.has($0.name) }
  }

  /// Builds the query over `target` (a collection path, or with `--group` a collection ID);
  /// without `applyingLimit`, `--limit` is left for the caller (a vector search's).
  static func query(_ context: CommandContext, target: String, applyingLimit: Bool = true) throws -> Query {
    let arguments = context.arguments
    let name = context.command.name
    var query: Query
    if arguments.has(OptionName.group) {
      query = context.db.collectionGroup(try PathArgument.collectionID(target, command: name))
    } else {
      query = context.db.collection(try PathArgument.collection(target, command: name)).query
    }
    var filters: [Filter] = []
    for text in arguments.values(OptionName.where) {
      filters.append(try WhereClause.parse(text, option: OptionName.where, context: context).filter)
    }
    let alternatives = try arguments.values(OptionName.or).map { try WhereClause.parse($0, option: OptionName.or, context: context).filter }
    if !alternatives.isEmpty { filters.append(.orFilter(alternatives)) }
    if filters.count == 1 {
      query = query.whereFilter(filters[0])
    } else if filters.count > 1 {
      query = query.whereFilter(.andFilter(filters))
    }
    for text in arguments.values(OptionName.orderBy) {
      var field = text
      var descending = false
      if let colon = text.lastIndex(of: ":") {
        let direction = text[text.index(after: colon)...].lowercased()
        guard direction == "desc" || direction == "asc" else {
          throw context.usage("--order-by '\(DisplayText.excerpt(text))': direction must be :asc or :desc, got ':\(direction)'")
        }
        descending = direction == "desc"
        field = String(text[..<colon])
      }
      query = query.order(by: try WhereClause.fieldPath(field, option: OptionName.orderBy, context: context), descending: descending)
    }
    if applyingLimit, let n = try arguments.integer(OptionName.limit, command: name) { query = query.limit(to: n) }
    if let n = try arguments.integer(OptionName.limitToLast, command: name) {
      guard arguments.has(OptionName.orderBy) else {
        throw context.usage("--limit-to-last needs an --order-by (the last N of which order?)")
      }
      query = query.limit(toLast: n)
    }
    if let n = try arguments.integer(OptionName.offset, command: name) { query = query.offset(n) }
    if let values = try cursor(OptionName.startAt, context) { query = query.start(at: values) }
    if let values = try cursor(OptionName.startAfter, context) { query = query.start(after: values) }
    if let values = try cursor(OptionName.endAt, context) { query = query.end(at: values) }
    if let values = try cursor(OptionName.endBefore, context) { query = query.end(before: values) }
    if let text = arguments.value(OptionName.select) {
      if arguments.has(OptionName.ids) { throw context.usage("--select and --ids cannot be combined") }
      let fields = try text.split(separator: ",", omittingEmptySubsequences: false).map {
        try WhereClause.fieldPath(String($0).trimmingCharacters(in: .whitespaces), option: OptionName.select, context: context)
      }
      query = query.select(fields)
    }
    if arguments.has(OptionName.ids) { query = query.selectDocumentIDs() }
    return query
  }

  /// A cursor option's values, or `nil` when not given.
  private static func cursor(_ option: String, _ context: CommandContext) throws -> [any Sendable]? {
    guard let text = context.arguments.value(option) else { return nil }
    let json = try InputDecoder.parseJSON(text, what: "\(option) '\(DisplayText.excerpt(text))'")
    guard case .array(let elements) = json, !elements.isEmpty else {
      throw context.usage(
        "\(option) needs a non-empty JSON array of order-by values, like '[\"a\", 5]', got '\(DisplayText.excerpt(text))'")
    }
    return try elements.map { element in
      do {
        return WhereClause.sendable(try context.decoder.value(element), context: context)
      } catch {
        throw context.usage("\(option) '\(DisplayText.excerpt(text))': \(error)")
      }
    }
  }
}
