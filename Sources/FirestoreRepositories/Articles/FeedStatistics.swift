/// What an ``ArticleFeed`` has asked the server for since it was created: the figures
/// behind the demo's cost table.
public struct FeedStatistics: Sendable, Equatable {
  /// ID-list queries run (each one `:runQuery` with an ID-only projection).
  public var idQueries = 0
  /// IDs those queries returned (each one a document read, as Firestore bills it).
  public var idsRead = 0
  /// Content batches read (each one `:batchGet`).
  public var batchRequests = 0
  /// Whole documents those batches returned.
  public var documentsRead = 0
  /// IDs a batch asked for whose documents no longer existed.
  public var missingDocuments = 0

  /// All zero.
  public init() {}
}
