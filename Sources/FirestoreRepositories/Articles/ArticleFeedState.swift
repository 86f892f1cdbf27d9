/// What an ``ArticleFeed`` holds at one moment, as its ``ArticleFeed/states()`` stream
/// publishes it: enough for a list screen to render rows, placeholders and a spinner.
public struct ArticleFeedState: Sendable, Equatable {
  /// The filter's description (``ArticleFilter/description``).
  public var filter: String
  /// Bumped by every filter change; a navigator resets its index when it sees a new one.
  public var generation: Int
  /// The ordered IDs of every article matching the filter.
  public var orderedIDs: [String]
  /// How many positions the list has paged in (``ArticleFeed/loadNextBatch()``).
  public var listedCount: Int
  /// How many articles are in the content cache.
  public var cachedCount: Int
  /// IDs whose documents were gone when their batch was read.
  public var missingIDs: Set<String>
  /// Whether the ID list is being (re)loaded.
  public var isLoadingIDs: Bool
  /// Indexes of the batches being read now.
  public var loadingBatches: Set<Int>
  /// Whether the ID list follows the server live (``ArticleFeed/startLiveUpdates()``).
  public var isLive: Bool
  /// The last error of a background read (a prefetch or the live listener), if any.
  public var lastError: String?

  /// An empty state for `filter`.
  public init(filter: String) {
    self.filter = filter
    generation = 0
    orderedIDs = []
    listedCount = 0
    cachedCount = 0
    missingIDs = []
    isLoadingIDs = false
    loadingBatches = []
    isLive = false
    lastError = nil
  }
}
