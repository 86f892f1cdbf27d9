/// Drops every document no active listener shows as soon as none does: the Apple SDK's
/// default for a memory cache.
public struct MemoryEagerGCSettings: MemoryGarbageCollectorSettings, Hashable {
  /// The collector.
  public init() {}

  /// ``LocalCacheSettings/eagerMemory``.
  public var memoryCache: LocalCacheSettings { .eagerMemory }
}

/// The Apple SDK's Swift name for ``MemoryEagerGCSettings``.
public typealias MemoryEagerGCSetting = MemoryEagerGCSettings
