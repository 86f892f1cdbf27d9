import FirestoreWire

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
      let segments = order.fieldPath == CanonicalFieldPath.documentKey ? [] : QueryEvaluator.segments(order.fieldPath)
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
    QueryEvaluator.normalizedOrder(query)
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
        switch (FieldMap.get(a.fields, key.segments), FieldMap.get(b.fields, key.segments)) {
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
}
