import FirestoreClient
import Foundation

/// One article of an ``ArticleFeed``: the fields an article reader shows.
///
/// Decoding is lenient, because an article written by an older app version or by hand in
/// the console must not take a whole batch down: a missing or mistyped field falls back to
/// an empty string (or the distant past for `publishedAt`), and ``id`` comes from the
/// document's reference.
///
/// ```swift
/// let article = try snapshot.data(as: Article.self)
/// print(article.id ?? "?", article.title)
/// ```
public struct Article: Codable, Sendable, Hashable, Identifiable {
  /// The document ID, filled from the snapshot's reference (never stored as a field).
  @DocumentID public var id: String?
  /// The headline.
  public var title: String
  /// The category the feed filters on, such as `"swift"`.
  public var category: String
  /// When the article was published; the feed's default order, newest first.
  public var publishedAt: Date
  /// The body text.
  public var content: String

  /// Creates an article (to write it, or in tests).
  public init(id: String? = nil, title: String, category: String, publishedAt: Date, content: String) {
    self._id = DocumentID(wrappedValue: id)
    self.title = title
    self.category = category
    self.publishedAt = publishedAt
    self.content = content
  }

  private enum CodingKeys: String, CodingKey {
    case id, title, category, publishedAt, content
  }

  /// Decodes leniently: every field has a fallback (see the type's summary).
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    _id = (try? c.decode(DocumentID<String>.self, forKey: .id)) ?? DocumentID(wrappedValue: nil)
    title = (try? c.decodeIfPresent(String.self, forKey: .title)) ?? ""
    category = (try? c.decodeIfPresent(String.self, forKey: .category)) ?? ""
    publishedAt = (try? c.decodeIfPresent(Date.self, forKey: .publishedAt)) ?? .distantPast
    content = (try? c.decodeIfPresent(String.self, forKey: .content)) ?? ""
  }

  /// Encodes the stored fields; ``id`` is left out (it is the document's name).
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(_id, forKey: .id)
    try c.encode(title, forKey: .title)
    try c.encode(category, forKey: .category)
    try c.encode(publishedAt, forKey: .publishedAt)
    try c.encode(content, forKey: .content)
  }
}
