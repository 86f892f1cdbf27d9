/// The order and limit a listen target's documents are shown in, computed on the client
/// exactly as the server orders query results.
///
/// The server decides which documents match; the client only sorts what it holds and cuts
/// it to the limit. Orderings are normalised like the server (and the official SDKs) do:
/// the explicit `orderBy` entries, then every inequality field not already ordered
/// (in field-path order), then `__name__`; the implicit ones take the direction of the
/// last explicit ordering, ascending when there is none. `offset` is ignored (Listen does
/// not use it). A `limitToLast` query arrives here already flipped to a plain `limit`.
public struct DocumentOrdering: Sendable {
  private struct Key: Sendable {
    /// Field names; empty for `__name__`.
    var segments: [String]
    var descending: Bool
  }

  private let keys: [Key]
  /// The most documents shown, or `nil` for no limit.
  public let limit: Int?

  /// Orders by document name, ascending, without a limit: a documents target.
  public static let byName = DocumentOrdering(orderBy: [], limit: nil)

  /// Orders and limits like `query`.
  public init(query: StructuredQuery) {
    self.init(orderBy: Self.normalizedOrderBy(query), limit: query.limit.map { Int(max($0, 0)) })
  }

  private init(orderBy: [StructuredQuery.Order], limit: Int?) {
    var keys = orderBy.map { order in
      let segments = order.fieldPath == CanonicalFieldPath.documentKey ? [] : Self.segments(order.fieldPath)
      return Key(segments: segments, descending: order.descending)
    }
    // The name always breaks ties, so the order is total.
    if !keys.contains(where: \.segments.isEmpty) { keys.append(Key(segments: [], descending: false)) }
    self.keys = keys
    self.limit = limit
  }

  /// The server's full ordering of `query`: explicit orders, then unordered inequality
  /// fields in field-path order, then `__name__`, the implicit ones in the direction of the
  /// last explicit order.
  public static func normalizedOrderBy(_ query: StructuredQuery) -> [StructuredQuery.Order] {
    var result = query.orderBy
    var seen = Set(query.orderBy.map { segments($0.fieldPath) })
    let direction = query.orderBy.last?.descending ?? false
    var inequalities: [[String]] = []
    collectInequalityFields(query.filter, into: &inequalities)
    inequalities.sort { compareFieldPaths($0, $1) < 0 }
    for path in inequalities where !seen.contains(path) && path != [CanonicalFieldPath.documentKey] {
      seen.insert(path)
      result.append(StructuredQuery.Order(fieldPath: CanonicalFieldPath.encode(path), descending: direction))
    }
    if !seen.contains([CanonicalFieldPath.documentKey]) {
      result.append(StructuredQuery.Order(fieldPath: CanonicalFieldPath.documentKey, descending: direction))
    }
    return result
  }

  /// Compares two documents: negative when `a` comes first, zero only for the same name.
  ///
  /// A document lacking an ordered field (which the server would not return) sorts before
  /// those that have it, so the comparison stays total.
  public func compare(_ a: Document, _ b: Document) -> Int {
    for key in keys {
      var c: Int
      if key.segments.isEmpty {
        c = ValueOrdering.compareResourceNames(a.name, b.name)
      } else {
        switch (Self.value(key.segments, in: a), Self.value(key.segments, in: b)) {
        case (let x?, let y?): c = ValueOrdering.compare(x, y)
        case (nil, nil): c = 0
        case (nil, _): c = -1
        case (_, nil): c = 1
        }
      }
      if key.descending { c = -c }
      if c != 0 { return c }
    }
    return 0
  }

  /// Whether `a` sorts before `b`.
  public func areInIncreasingOrder(_ a: Document, _ b: Document) -> Bool { compare(a, b) < 0 }

  /// `documents` sorted and cut to the limit.
  public func view(of documents: some Sequence<Document>) -> [Document] {
    let sorted = documents.sorted(by: areInIncreasingOrder)
    guard let limit, sorted.count > limit else { return sorted }
    return Array(sorted.prefix(limit))
  }

  /// The index at which `document` would be inserted into the sorted `documents`.
  public func insertionIndex(of document: Document, in documents: [Document]) -> Int {
    var low = 0
    var high = documents.count
    while low < high {
      let mid = (low + high) / 2
      if compare(documents[mid], document) < 0 { low = mid + 1 } else { high = mid }
    }
    return low
  }

  // MARK: - Helpers

  private static func segments(_ fieldPath: String) -> [String] {
    // A path the server accepted always decodes; keep a malformed one as a single name.
    (try? CanonicalFieldPath.decode(fieldPath)) ?? [fieldPath]
  }

  private static func value(_ segments: [String], in document: Document) -> Value? {
    guard let first = segments.first, var value = document.fields[first] else { return nil }
    for name in segments.dropFirst() {
      guard case .map(let map) = value, let next = map[name] else { return nil }
      value = next
    }
    return value
  }

  private static func compareFieldPaths(_ a: [String], _ b: [String]) -> Int {
    for (x, y) in zip(a, b) {
      let c = ValueOrdering.compareUTF8(x, y)
      if c != 0 { return c }
    }
    return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
  }

  /// Fields with range, `!=`, `NOT_IN`, `IS_NOT_NAN` or `IS_NOT_NULL` filters: the server
  /// orders by them implicitly.
  private static func collectInequalityFields(_ filter: QueryFilter?, into paths: inout [[String]]) {
    switch filter {
    case .field(let path, let op, _):
      switch op {
      case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual, .notEqual, .notIn: paths.append(segments(path))
      case .equal, .arrayContains, .in, .arrayContainsAny: break
      }
    case .unary(let path, let op):
      if op == .isNotNaN || op == .isNotNull { paths.append(segments(path)) }
    case .composite(_, let filters):
      for f in filters { collectInequalityFields(f, into: &paths) }
    case nil:
      break
    }
  }
}
