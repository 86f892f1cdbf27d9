/// A cache in memory, gone with the instance: the Apple SDK's `MemoryCacheSettings`.
///
/// ```swift
/// settings.cacheSettings = MemoryCacheSettings(garbageCollectorSettings: MemoryLRUGCSettings())
/// ```
public struct MemoryCacheSettings: LocalCacheSettingsConvertible {
  /// How documents are let go of.
  public let garbageCollectorSettings: any MemoryGarbageCollectorSettings

  /// A memory cache with eager garbage collection, as in the Apple SDK.
  public init() { garbageCollectorSettings = MemoryEagerGCSettings() }

  /// A memory cache with the given garbage collection.
  public init(garbageCollectorSettings: any MemoryGarbageCollectorSettings) {
    self.garbageCollectorSettings = garbageCollectorSettings
  }

  /// The matching ``LocalCacheSettings``.
  public var localCacheSettings: LocalCacheSettings { garbageCollectorSettings.memoryCache }
}
