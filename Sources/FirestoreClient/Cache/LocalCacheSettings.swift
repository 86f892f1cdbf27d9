import Foundation

/// Where a ``Firestore`` instance keeps the documents it has read, for ``FirestoreSource/cache``
/// reads, offline fallback, listeners' first snapshots and latency compensation.
///
/// The default is an in-memory cache of 100 MB, as in the Firebase Apple SDK. A persistent
/// cache survives the process: the next run that opens the same directory starts with what
/// the previous one stored, writes that were still waiting for the server included. When a
/// cache grows past its size, the documents used least recently are evicted until it holds
/// 90 % of it; documents an active listener shows and documents with pending writes are
/// never evicted.
///
/// The Apple SDK's spellings, ``PersistentCacheSettings`` and ``MemoryCacheSettings``, set
/// the same thing through ``FirestoreSettings/cacheSettings``.
///
/// ```swift
/// let settings = FirestoreSettings()
/// settings.cache = .persistent(directory: URL(fileURLWithPath: "/var/lib/myapp/firestore"))
/// let db = Firestore(projectID: "my-project", settings: settings)
/// ```
public enum LocalCacheSettings: Sendable, Hashable {
  /// A cache in memory, at most `sizeBytes` of documents; gone when the instance is.
  case memory(sizeBytes: Int = LocalCacheSettings.defaultSizeBytes)
  /// A cache in an SQLite file inside `directory` (created if needed), at most `sizeBytes` of
  /// documents. Instances of the same project and database opening the same directory
  /// share it. A corrupt, truncated or incompatible file is reported once through
  /// ``FirestoreSettings/logHandler`` and rebuilt empty.
  case persistent(directory: URL, sizeBytes: Int = LocalCacheSettings.defaultSizeBytes)
  /// A cache in memory that keeps only the documents active listeners show and those
  /// with pending writes, dropping every other document as soon as nothing shows it: the
  /// Apple SDK's eager garbage collection (``MemoryEagerGCSettings``).
  case eagerMemory
  /// No cache: ``FirestoreSource/cache`` finds nothing and the server's results are not kept.
  /// Listeners still show this client's pending writes at once, and writes are queued in
  /// memory while the server cannot be reached.
  case none

  /// The default size, 100 MB, as in the Firebase Apple SDK.
  public static let defaultSizeBytes = 100 * 1_048_576
  /// The smallest size accepted, 1 MB, as in the Firebase Apple SDK.
  public static let minimumSizeBytes = 1_048_576

  /// The configured size, or `nil` for ``none`` and ``eagerMemory``;
  /// ``FirestoreCacheSizeUnlimited`` for a cache that is never trimmed.
  public var sizeBytes: Int? {
    switch self {
    case .memory(let size), .persistent(_, let size): return size
    case .eagerMemory, .none: return nil
    }
  }

  /// The most bytes kept: the size, with ``FirestoreCacheSizeUnlimited`` as no limit.
  var sizeLimit: Int {
    guard let size = sizeBytes, size != Int(FirestoreCacheSizeUnlimited) else { return Int.max }
    return size
  }

  /// `invalidArgument` naming the problem, or `nil` when the settings are usable.
  var validationError: FirestoreError? {
    if let size = sizeBytes, size < Self.minimumSizeBytes, size != Int(FirestoreCacheSizeUnlimited) {
      return .invalidArgument("cache size \(size) bytes is below the minimum of \(Self.minimumSizeBytes) bytes (1 MB)")
    }
    if case .persistent(let directory, _) = self, !directory.isFileURL {
      return .invalidArgument("persistent cache directory \(directory) is not a file URL")
    }
    return nil
  }
}
