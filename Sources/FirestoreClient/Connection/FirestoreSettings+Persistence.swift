import Foundation

/// The Apple SDK's deprecated cache switches, kept because much ported code still sets
/// them; both read and write ``FirestoreSettings/cache``.
extension FirestoreSettings {
  /// Whether the local cache is kept in a file that survives restarts.
  ///
  /// Setting `true` makes a memory cache a persistent one in
  /// ``PersistentCacheSettings/defaultDirectory``, keeping its size; a cache that is
  /// already persistent keeps its directory. Setting `false` makes a persistent cache a
  /// memory cache of the same size; a cache that is not persistent (memory, eager memory
  /// or none) stays as it is.
  @available(*, deprecated, message: "Set cacheSettings to PersistentCacheSettings or MemoryCacheSettings instead.")
  public var isPersistenceEnabled: Bool {
    get {
      if case .persistent = cache { return true }
      return false
    }
    set {
      switch (cache, newValue) {
      case (.persistent(_, let size), false): cache = .memory(sizeBytes: size)
      case (.persistent, true), (_, false): break
      case (_, true):
        let size = cache.sizeBytes ?? LocalCacheSettings.defaultSizeBytes
        cache = .persistent(directory: PersistentCacheSettings.defaultDirectory, sizeBytes: size)
      }
    }
  }

  /// The most bytes of documents the cache keeps (``FirestoreCacheSizeUnlimited`` for no
  /// limit); 100 MB by default, as in the Apple SDK.
  ///
  /// It sizes a memory or persistent cache. A cache that has no size (eager memory or
  /// none) reads as the default and is left as it is when this is set. A size below 1 MB
  /// makes the instance refuse its calls with `invalidArgument`.
  @available(*, deprecated, message: "Set cacheSettings to PersistentCacheSettings(sizeBytes:) or MemoryCacheSettings instead.")
  public var cacheSizeBytes: Int64 {
    get { Int64(cache.sizeBytes ?? LocalCacheSettings.defaultSizeBytes) }
    set {
      switch cache {
      case .memory: cache = .memory(sizeBytes: Int(clamping: newValue))
      case .persistent(let directory, _): cache = .persistent(directory: directory, sizeBytes: Int(clamping: newValue))
      case .eagerMemory, .none: break
      }
    }
  }
}
