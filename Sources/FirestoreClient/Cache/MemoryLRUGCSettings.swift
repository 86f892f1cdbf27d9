import Foundation

/// Keeps documents up to a size, dropping the least recently used beyond it.
public struct MemoryLRUGCSettings: MemoryGarbageCollectorSettings, Hashable {
  /// The most bytes of documents kept.
  public let sizeBytes: Int

  /// Up to 100 MB.
  public init() { sizeBytes = LocalCacheSettings.defaultSizeBytes }

  /// Up to `sizeBytes` (at least 1 MB, or ``FirestoreCacheSizeUnlimited``).
  public init(sizeBytes: NSNumber) { self.sizeBytes = sizeBytes.intValue }

  /// ``LocalCacheSettings/memory(sizeBytes:)``.
  public var memoryCache: LocalCacheSettings { .memory(sizeBytes: sizeBytes) }
}
