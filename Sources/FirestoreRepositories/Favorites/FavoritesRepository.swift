import FirestoreClient

/// Per-user favorites: stars live in `users/{uid}/favorites/{itemID}` (one
/// document with a `starredAt` server timestamp each), never in the public items, and a
/// live list merges the public collection with the user's stars.
///
/// - ``star(_:)`` / ``unstar(_:)`` write or delete the favorite document; ``isStarred(_:)``
///   reads it.
/// - ``list(starredOnly:itemsQuery:)`` listens to the public collection and to the favorites (two
///   listeners, as the seed does) and yields a new ``FavoritesList`` whenever either
///   changes — a star made on another device included. Thanks to latency compensation a
///   star made here shows at once, marked ``StarredItem/isPending`` until the server
///   confirms it.
/// - The security rules that go with it ship in `Examples/rules/favorites.rules`: each user
///   reads and writes only their own favorites; anyone reads the public items; only an
///   admin writes them.
///
/// ```swift
/// let favorites = try FavoritesRepository(firestore: db, uid: user.uid, itemsCollection: "mealPlans", itemType: MealPlan.self)
/// Task { for try await list in favorites.list() { render(list.items) } }
/// try await favorites.star("lasagna")   // the list shows the star before this returns
/// ```
public struct FavoritesRepository<Item: Decodable & Sendable>: Sendable {
  /// The database.
  public let firestore: Firestore
  /// The user whose favorites these are.
  public let uid: String
  /// The public collection whose items can be starred.
  public let itemsCollection: CollectionReference

  /// Creates the repository.
  ///
  /// - Parameters:
  ///   - firestore: the database.
  ///   - uid: the signed-in user's ID.
  ///   - itemsCollection: the public collection's path (default `mealPlans`).
  ///   - itemType: the type items decode as.
  /// - Throws: `invalidArgument` for an empty `uid` or one with `/`, or a path that is not
  ///   a collection.
  public init(firestore: Firestore, uid: String, itemsCollection: String = "mealPlans", itemType: Item.Type = Item.self) throws {
    guard !uid.isEmpty, !uid.contains("/") else {
      throw FirestoreError(.invalidArgument, "user ID \"\(uid)\" is not a document ID (empty, or contains '/')")
    }
    let segments = itemsCollection.split(separator: "/", omittingEmptySubsequences: false)
    guard !itemsCollection.isEmpty, segments.count % 2 == 1, !segments.contains(where: \.isEmpty) else {
      throw FirestoreError(.invalidArgument, "items collection \"\(itemsCollection)\" is not a collection path")
    }
    self.firestore = firestore
    self.uid = uid
    self.itemsCollection = firestore.collection(itemsCollection)
  }

  /// `users/{uid}/favorites`.
  public var favorites: CollectionReference {
    firestore.collection("users").document(uid).collection("favorites")
  }

  private func favorite(_ itemID: String) throws -> DocumentReference {
    guard !itemID.isEmpty, !itemID.contains("/") else {
      throw FirestoreError(.invalidArgument, "item ID \"\(itemID)\" is not a document ID (empty, or contains '/')")
    }
    return favorites.document(itemID)
  }

  /// Stars `itemID`: writes `users/{uid}/favorites/{itemID}` with `starredAt` set by the
  /// server. Starring twice keeps one favorite (the time of the last star).
  ///
  /// - Throws: `invalidArgument` for an ID that is empty or has `/`; the write's error
  ///   (`permissionDenied` under the shipped rules for another user's favorites).
  public func star(_ itemID: String) async throws {
    try await favorite(itemID).setData(["starredAt": FieldValue.serverTimestamp()])
  }

  /// Removes the star of `itemID` (deleting a favorite that does not exist is no error).
  public func unstar(_ itemID: String) async throws {
    try await favorite(itemID).delete()
  }

  /// Stars or unstars `itemID`.
  public func setStarred(_ itemID: String, _ starred: Bool) async throws {
    if starred { try await star(itemID) } else { try await unstar(itemID) }
  }

  /// Whether the user has starred `itemID` (the server's answer, the cache's when offline).
  public func isStarred(_ itemID: String) async throws -> Bool {
    try await favorite(itemID).getDocument().exists
  }

  /// The public items with their star state, live: one list now and one after every
  /// change to either the items or the favorites. The first list comes once both have
  /// answered. With `starredOnly` only starred items are listed.
  ///
  /// - Parameters:
  ///   - starredOnly: list only the items the user starred.
  ///   - itemsQuery: a narrower query over the public collection (defaults to all of it,
  ///     ordered by ID).
  /// - Returns: a stream that fails when either listener fails (say `permissionDenied`).
  public func list(starredOnly: Bool = false, itemsQuery: Query? = nil) -> AsyncThrowingStream<FavoritesList<Item>, any Error> {
    let items = itemsQuery ?? itemsCollection.query
    let favorites = self.favorites.query
    return AsyncThrowingStream { continuation in
      let merger = FavoritesMerger<Item>(starredOnly: starredOnly)
      let task = Task {
        do {
          try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
              for try await snapshot in items.snapshots(includeMetadataChanges: true) {
                if let list = merger.setItems(snapshot) { continuation.yield(list) }
              }
            }
            group.addTask {
              for try await snapshot in favorites.snapshots(includeMetadataChanges: true) {
                if let list = merger.setFavorites(snapshot) { continuation.yield(list) }
              }
            }
            // The first listener to fail ends the list (waitForAll would wait for the other).
            while try await group.next() != nil {}
          }
          continuation.finish()
        } catch {
          continuation.finish(throwing: error)
        }
      }
      continuation.onTermination = { _ in task.cancel() }
    }
  }
}
