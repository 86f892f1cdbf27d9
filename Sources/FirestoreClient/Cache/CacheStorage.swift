import FirestoreWire
import Foundation

/// Where a ``LocalStore`` keeps what the server said of documents: in memory or in an
/// SQLite file.
///
/// Keys are document paths relative to the database root (`users/ada`). A path holds the
/// server's document, or the word that there is none (``CacheEntry/missing(_:)``, which
/// the Apple SDK keeps as a `NoDocument`), or nothing. Reads count as use for
/// least-recently-used eviction, which ``apply(_:)`` runs when the entries held exceed
/// ``sizeLimit``. Implementations are not thread-safe: the store calls them under its lock.
protocol CacheStorage: AnyObject {
  /// The most bytes of documents kept.
  var sizeLimit: Int { get }
  /// The bytes of entries held now.
  var byteCount: Int { get }
  /// What is held at `path`, or `nil` when nothing is.
  func entry(at path: String) throws(CacheStorageError) -> CacheEntry?
  /// The version of what is held at `path` (cheaper than reading it): a document's update
  /// time, or when a missing one was found missing; `nil` when nothing is held or it has
  /// no time. Not counted as a use.
  func version(at path: String) throws(CacheStorageError) -> Timestamp?
  /// The cached documents of the collection `collectionID` directly under `parent` (`""`
  /// for the root), or with `allDescendants` of every collection with that ID below it.
  func documents(parent: String, collectionID: String, allDescendants: Bool) throws(CacheStorageError) -> [Document]
  /// Stores entries (non-`nil`) or lets them go (`nil`), all or none; then, when over
  /// ``sizeLimit``, evicts the least recently used entries down to ``evictionTarget``,
  /// skipping those `isPinned` names (it is asked only when eviction runs).
  func apply(_ changes: [(path: String, entry: CacheEntry?)], isPinned: (String) -> Bool) throws(CacheStorageError)
  /// Whether write batches are kept here across restarts (the SQLite file); otherwise the
  /// store keeps them in memory only and the mutation methods are not called.
  var persistsMutations: Bool { get }
  /// The write batches `owner` holds, oldest first, after taking over those of owners
  /// `isAbandoned` says are gone (a process that exited, an instance that closed). Each
  /// keeps the user who made it.
  func claimMutations(owner: String, isAbandoned: (String) -> Bool) throws(CacheStorageError) -> [StoredMutation]
  /// Stores a write batch of `owner` made by `user` (`nil`: not known yet), given as its
  /// commit request body, and returns its ID: above every ID in the file and at least
  /// `minimumID`.
  func addMutation(
    _ commitBody: Data, localWriteTime: Timestamp, owner: String, user: TokenUser?, minimumID: Int
  ) throws(CacheStorageError) -> Int
  /// Records the user of batches stored before their user was known.
  func setMutationUser(_ ids: [Int], _ user: TokenUser) throws(CacheStorageError)
  /// Removes a settled write batch.
  func removeMutation(_ id: Int) throws(CacheStorageError)
  /// Records whether an attempt to send the batch may have reached the server.
  func setMutationAttempted(_ id: Int, _ attempted: Bool) throws(CacheStorageError)
  /// Releases the storage's file (if any) now, not whenever the last reference goes; the
  /// store calls it before deleting the file. Later calls may fail.
  func close()
  /// The named query a loaded bundle saved under `name`, or `nil`.
  func namedQuery(_ name: String) throws(CacheStorageError) -> NamedQuery?
  /// The create time of the last loaded bundle with this ID, or `nil`.
  func bundleCreateTime(_ id: String) throws(CacheStorageError) -> Timestamp?
  /// Records a loaded bundle and its named queries (replacing those of the same names),
  /// all or none. They are small and never evicted.
  func saveBundle(_ metadata: BundleMetadata, queries: [NamedQuery]) throws(CacheStorageError)
  /// The cached documents of the collection(s) (as in ``documents(parent:collectionID:allDescendants:)``)
  /// that `query` can match, read through the field index that narrows them best: a
  /// superset of the matches, which the caller runs the query over. `nil` when no index
  /// serves the query (or the storage keeps none): the caller scans.
  func indexedDocuments(
    _ query: StructuredQuery, parent: String, collectionID: String, allDescendants: Bool
  ) throws(CacheStorageError) -> [Document]?
  /// Stores a field index with the entries of the cached documents of its group; returns
  /// it as stored, or `nil` when one with the same definition is there (or the storage
  /// keeps none).
  func addFieldIndex(_ index: FieldIndex) throws(CacheStorageError) -> FieldIndex?
  /// The stored field indexes.
  func fieldIndexes() throws(CacheStorageError) -> [FieldIndex]
  /// Removes every field index and its entries.
  func deleteAllFieldIndexes() throws(CacheStorageError)
}

/// What the cache holds for one document path.
enum CacheEntry: Sendable, Equatable {
  /// The server's version of the document.
  case document(Document)
  /// The server found no document there, as of this time (a read's time, a delete's
  /// commit time; `nil` when it did not say).
  case missing(Timestamp?)

  /// The document, or `nil` for a missing one.
  var document: Document? {
    if case .document(let document) = self { return document }
    return nil
  }

  /// A document's update time, or when a missing one was found missing.
  var version: Timestamp? {
    switch self {
    case .document(let document): return document.updateTime
    case .missing(let time): return time
    }
  }

  /// The bytes the entry counts for eviction: a document's storage size; a missing one
  /// counts as an empty document with its name.
  func size(path: String) -> Int {
    DocumentSize.of(name: path, fields: document?.fields ?? [:])
  }
}

/// A write batch as the storage keeps it.
struct StoredMutation: Sendable {
  let id: Int
  let writes: [Write]
  /// The commit request body the writes were read from.
  let commitBody: Data
  let localWriteTime: Timestamp
  /// Who made it: only that user's tokens send it. `nil` for a batch stored before its user
  /// was known.
  let user: TokenUser?
  /// Whether an attempt to send it may have reached the server (its outcome is then unknown).
  let attempted: Bool
}

/// A storage failure.
struct CacheStorageError: Error, CustomStringConvertible {
  /// What failed, for the log.
  var description: String
  /// Whether the stored data cannot be trusted (corrupt, truncated, foreign or of another
  /// schema), so that the store rebuilds the cache; otherwise the failure is transient
  /// (the file is locked, the disk full) and only the operation fails.
  var isCorruption = true
}

extension CacheStorage {
  /// What eviction brings the size down to: 90 % of the limit, so that a full cache does
  /// not evict on every write.
  var evictionTarget: Int { sizeLimit - sizeLimit / 10 }

  /// Stores entries or lets them go, evicting any entry when over the limit.
  func apply(_ changes: [(path: String, entry: CacheEntry?)]) throws(CacheStorageError) {
    try apply(changes) { _ in false }
  }

  /// The document held at `path`, or `nil` when none is (also when it is known missing).
  func document(at path: String) throws(CacheStorageError) -> Document? {
    try entry(at: path)?.document
  }

  /// No write batches here: the store keeps them in memory.
  var persistsMutations: Bool { false }
  func claimMutations(owner: String, isAbandoned: (String) -> Bool) throws(CacheStorageError) -> [StoredMutation] { [] }
  func addMutation(
    _ commitBody: Data, localWriteTime: Timestamp, owner: String, user: TokenUser?, minimumID: Int
  ) throws(CacheStorageError) -> Int {
    minimumID
  }
  func setMutationUser(_ ids: [Int], _ user: TokenUser) throws(CacheStorageError) {}
  func removeMutation(_ id: Int) throws(CacheStorageError) {}
  func setMutationAttempted(_ id: Int, _ attempted: Bool) throws(CacheStorageError) {}

  /// No field indexes here: queries scan (only the SQLite file keeps indexes).
  func indexedDocuments(
    _ query: StructuredQuery, parent: String, collectionID: String, allDescendants: Bool
  ) throws(CacheStorageError) -> [Document]? {
    nil
  }
  func addFieldIndex(_ index: FieldIndex) throws(CacheStorageError) -> FieldIndex? { nil }
  func fieldIndexes() throws(CacheStorageError) -> [FieldIndex] { [] }
  func deleteAllFieldIndexes() throws(CacheStorageError) {}
}

/// Path arithmetic shared by the storages.
enum CachePath {
  /// The collection path (`users/ada/favorites`) and collection ID of a document path.
  static func split(_ path: String) -> (collection: String, collectionID: String, parent: String) {
    let segments = path.slashSegments
    let collectionSegments = segments.dropLast()
    let collection = collectionSegments.joined(separator: "/")
    let parent = collectionSegments.dropLast().joined(separator: "/")
    return (collection, String(collectionSegments.last ?? ""), parent)
  }

  /// The collection path of a document path (`users/ada/favorites/f1` →
  /// `users/ada/favorites`): what ``split(_:)`` returns first, without splitting the rest.
  static func collection(of path: String) -> String {
    guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "" }
    return String(path[..<slash])
  }
}
