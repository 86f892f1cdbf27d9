/// How a memory cache lets go of documents: ``MemoryEagerGCSettings`` or ``MemoryLRUGCSettings``.
public protocol MemoryGarbageCollectorSettings: Sendable {
  /// The memory cache this collector makes.
  var memoryCache: LocalCacheSettings { get }
}
