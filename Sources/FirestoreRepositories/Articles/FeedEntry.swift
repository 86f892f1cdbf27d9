/// One position of an ``ArticleFeed``: its index in the ordered ID list, the article's ID,
/// and the article, or `nil` when the document was deleted after the ID list was read.
public struct FeedEntry: Sendable, Hashable, Identifiable {
  /// The index into the feed's ordered ID list.
  public let index: Int
  /// The article's document ID.
  public let id: String
  /// The article; `nil` when it no longer exists (see ``isMissing``).
  public let article: Article?

  /// Creates an entry.
  public init(index: Int, id: String, article: Article?) {
    self.index = index
    self.id = id
    self.article = article
  }

  /// Whether the article was deleted between reading the ID list and reading its batch.
  public var isMissing: Bool { article == nil }
}
