import FirestoreClient

/// Which articles an ``ArticleFeed`` shows and in what order: an optional equality filter
/// (`whereField(field, isEqualTo: value)`) and one sort field.
///
/// ```swift
/// let swift = ArticleFilter.category("swift")          // category == "swift", newest first
/// let all = ArticleFilter(orderBy: "publishedAt", descending: false)
/// ```
public struct ArticleFilter: Sendable, CustomStringConvertible {
  /// The field compared for equality, or `nil` for every article of the collection.
  public let field: String?
  /// The value ``field`` must equal (a string, number, boolean, timestamp...); `nil` when
  /// there is no filter.
  public let value: (any Sendable)?
  /// The field the feed is ordered by.
  public let orderBy: String
  /// Whether the order is descending (newest first for a date).
  public let descending: Bool

  /// Articles whose `field` equals `value`, ordered by `orderBy`.
  public init(field: String, isEqualTo value: any Sendable, orderBy: String = "publishedAt", descending: Bool = true) {
    self.field = field
    self.value = value
    self.orderBy = orderBy
    self.descending = descending
  }

  /// Every article of the collection, ordered by `orderBy`.
  public init(orderBy: String = "publishedAt", descending: Bool = true) {
    self.field = nil
    self.value = nil
    self.orderBy = orderBy
    self.descending = descending
  }

  /// Articles whose `category` is `category`, newest first.
  public static func category(_ category: String) -> ArticleFilter {
    ArticleFilter(field: "category", isEqualTo: category)
  }

  /// `category == swift by publishedAt desc`, for logs and the demo's output.
  public var description: String {
    let order = "by \(orderBy) \(descending ? "desc" : "asc")"
    guard let field, let value else { return "all " + order }
    return "\(field) == \(value) \(order)"
  }

  /// The full query of this filter over `collection` (what the seed reads, documents and
  /// all); ``ArticleFeed`` adds an ID-only projection to it.
  public func query(in collection: CollectionReference) -> Query {
    var query = collection.query
    if let field, let value { query = query.whereField(field, isEqualTo: value) }
    return query.order(by: orderBy, descending: descending)
  }
}
