/// Field indexes in the persistent cache, which let queries on the cache read only the
/// documents their filters can match instead of every cached document of the collection:
/// Firebase's Apple SDK's `PersistentCacheIndexManager`, from
/// ``Firestore/persistentCacheIndexManager``.
///
/// With auto creation on, a query on the cache (``FirestoreSource/cache``, a listener's
/// snapshot from the cache) that reads at least 100 cached documents, more than 3.4 for
/// each one it matches, creates an index for its filters and ordering, as the Apple SDK
/// does. Later queries that an index serves read through it. Results never change: an
/// index only picks the documents to read, and the query runs over them as over all of
/// them. The indexes are kept in the cache file, up to date with every change to it, and
/// serve every instance that opens the file.
///
/// ```swift
/// db.persistentCacheIndexManager?.enableIndexAutoCreation()
/// let open = try await db.collection("tickets").whereField("state", isEqualTo: "open").getDocuments(source: .cache)
/// ```
///
/// Two managers are equal only when they are the same object: one per ``Firestore``
/// instance. After ``Firestore/terminate()`` the methods do nothing (the Apple SDK raises an
/// exception there).
public final class PersistentCacheIndexManager: Sendable, Hashable {
  private let store: LocalStore

  init(store: LocalStore) { self.store = store }

  /// Lets queries on the cache create the indexes that would make them read fewer
  /// documents. Off by default; this instance's choice, not kept in the file.
  public func enableIndexAutoCreation() {
    store.setIndexAutoCreation(true)
  }

  /// Stops creating indexes; those already created are still used and kept up to date.
  public func disableIndexAutoCreation() {
    store.setIndexAutoCreation(false)
  }

  /// Removes every index from the cache file, for every instance that shares it.
  public func deleteAllIndexes() {
    store.deleteAllFieldIndexes()
  }

  /// Whether `lhs` and `rhs` are the same manager.
  public static func == (lhs: PersistentCacheIndexManager, rhs: PersistentCacheIndexManager) -> Bool {
    lhs === rhs
  }

  /// Hashes the manager's identity.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(self))
  }
}
