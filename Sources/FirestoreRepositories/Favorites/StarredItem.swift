/// One item of a ``FavoritesRepository``'s merged list: the public item and whether the
/// current user starred it.
public struct StarredItem<Item: Sendable>: Sendable, Identifiable {
  /// The item's document ID.
  public let id: String
  /// The public item.
  public let item: Item
  /// Whether the user's favorites hold this item.
  public let isStarred: Bool
  /// Whether the star state is this client's write not yet confirmed by the server
  /// (latency compensation: the star shows at once).
  public let isPending: Bool

  /// Creates an entry.
  public init(id: String, item: Item, isStarred: Bool, isPending: Bool = false) {
    self.id = id
    self.item = item
    self.isStarred = isStarred
    self.isPending = isPending
  }
}

extension StarredItem: Equatable where Item: Equatable {}
extension StarredItem: Hashable where Item: Hashable {}
