/// A cache size that means "never trim the cache", as in the Apple SDK.
///
/// ```swift
/// settings.cacheSettings = PersistentCacheSettings(sizeBytes: NSNumber(value: FirestoreCacheSizeUnlimited))
/// ```
// swift-format-ignore: AlwaysUseLowerCamelCase
// The Apple SDK's name, kept so that ported code compiles.
public let FirestoreCacheSizeUnlimited: Int64 = -1

/// A value that ``FirestoreSettings/cacheSettings`` accepts: ``PersistentCacheSettings``,
/// ``MemoryCacheSettings`` (the Apple SDK's spellings) or a ``LocalCacheSettings``.
public protocol LocalCacheSettingsConvertible: Sendable {
  /// The cache these settings describe.
  var localCacheSettings: LocalCacheSettings { get }
}

extension LocalCacheSettings: LocalCacheSettingsConvertible {
  /// The settings themselves.
  public var localCacheSettings: LocalCacheSettings { self }
}
