/// A cache in memory, gone with the instance: the Apple SDK's `MemoryCacheSettings`.
///
/// ```swift
/// settings.cacheSettings = MemoryCacheSettings(garbageCollectorSettings: MemoryLRUGCSettings())
/// ```
public struct MemoryCacheSettings: LocalCacheSettingsConvertible {
  /// How documents are let go of.
  public let garbageCollectorSettings: any MemoryGarbageCollectorSettings

  /// A memory cache with least-recently-used garbage collection of the default size, as in
  /// the Apple SDK (whose `MemoryCacheSettings()` keeps documents until the cache is full;
  /// pass ``MemoryEagerGCSettings`` for eager collection).
  public init() { garbageCollectorSettings = MemoryLRUGCSettings() }

  /// A memory cache with the given garbage collection.
  public init(garbageCollectorSettings: any MemoryGarbageCollectorSettings) {
    self.garbageCollectorSettings = garbageCollectorSettings
  }

  /// The matching ``LocalCacheSettings``.
  public var localCacheSettings: LocalCacheSettings { garbageCollectorSettings.memoryCache }
}
