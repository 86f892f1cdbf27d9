/// One version of a ``FavoritesRepository``'s live merged list.
public struct FavoritesList<Item: Sendable>: Sendable {
  /// The items in the public collection's order (only starred ones when the list was
  /// asked for starred-only), each with its star state.
  public let items: [StarredItem<Item>]
  /// The IDs the user has starred, including ones whose item is not (or no longer) in the
  /// public collection.
  public let starredIDs: Set<String>
  /// Whether any star state shown is a local write still on its way to the server.
  public let hasPendingWrites: Bool
  /// Whether either side is the cache's data rather than the server's: before the server
  /// first answers a listener, or while the client is offline (the Apple SDK's
  /// `SnapshotMetadata.isFromCache`). Such a list may be empty or out of date.
  public let isFromCache: Bool

  /// IDs of public documents left out because they did not decode as `Item` (their
  /// fields have the wrong types); reported rather than dropped silently.
  public let undecodableIDs: [String]

  /// Creates a list.
  public init(
    items: [StarredItem<Item>], starredIDs: Set<String>, hasPendingWrites: Bool, isFromCache: Bool = false,
    undecodableIDs: [String] = []
  ) {
    self.items = items
    self.starredIDs = starredIDs
    self.hasPendingWrites = hasPendingWrites
    self.isFromCache = isFromCache
    self.undecodableIDs = undecodableIDs
  }

  /// The IDs of the items shown, in order.
  public var ids: [String] { items.map(\.id) }

  /// The IDs of the starred items shown, in order.
  public var starredItemIDs: [String] { items.filter(\.isStarred).map(\.id) }
}
