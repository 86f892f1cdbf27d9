import FirestoreClient
import FirestorePlatform
import FirestoreWire

/// Holds the latest snapshot of each side of a merged favorites list and builds the list
/// when either changes — once both sides have answered, so stars never flash off while the
/// favorites are still loading (the seed assembled the list without them).
final class FavoritesMerger<Item: Decodable & Sendable>: Sendable {
  private struct Sides {
    var items: [(id: String, item: Item)]?
    var undecodable: [String] = []
    var starred: [String: Bool]?  // ID → pending
    var favoritesPending = false
    var itemsFromCache = false
    var favoritesFromCache = false
  }

  private let starredOnly: Bool
  private let sides = Locked(Sides())

  init(starredOnly: Bool) {
    self.starredOnly = starredOnly
  }

  /// Takes a snapshot of the public items; returns the new list when both sides are in.
  func setItems(_ snapshot: QuerySnapshot) -> FavoritesList<Item>? {
    var decoded: [(id: String, item: Item)] = []
    var undecodable: [String] = []
    for document in snapshot.documents {
      if let item = try? document.data(as: Item.self) {
        decoded.append((document.documentID, item))
      } else {
        undecodable.append(document.documentID)
      }
    }
    return sides.withLock { sides in
      sides.items = decoded
      sides.undecodable = undecodable
      sides.itemsFromCache = snapshot.metadata.isFromCache
      return build(sides)
    }
  }

  /// Takes a snapshot of the user's favorites; returns the new list when both sides are in.
  func setFavorites(_ snapshot: QuerySnapshot) -> FavoritesList<Item>? {
    var starred: [String: Bool] = [:]
    for document in snapshot.documents { starred[document.documentID] = document.metadata.hasPendingWrites }
    return sides.withLock { sides in
      sides.starred = starred
      sides.favoritesPending = snapshot.metadata.hasPendingWrites
      sides.favoritesFromCache = snapshot.metadata.isFromCache
      return build(sides)
    }
  }

  private func build(_ sides: Sides) -> FavoritesList<Item>? {
    guard let items = sides.items, let starred = sides.starred else { return nil }
    var result: [StarredItem<Item>] = []
    for (id, item) in items {
      let pending = starred[id]
      if starredOnly && pending == nil { continue }
      result.append(StarredItem(id: id, item: item, isStarred: pending != nil, isPending: pending ?? false))
    }
    return FavoritesList(
      items: result, starredIDs: Set(starred.keys), hasPendingWrites: sides.favoritesPending,
      isFromCache: sides.itemsFromCache || sides.favoritesFromCache, undecodableIDs: sides.undecodable)
  }
}
