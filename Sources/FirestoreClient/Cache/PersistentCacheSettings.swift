import Foundation

/// A cache kept in an SQLite file, with the pending writes, so that both survive restarts:
/// the Apple SDK's `PersistentCacheSettings`.
///
/// Where the Apple SDK keeps the file in the app's container, this client keeps it in the
/// user's application support directory (`$XDG_DATA_HOME`, usually `~/.local/share`,
/// on Linux), under `firestore`, unless a directory is given. The directory is made the
/// user's alone (`0700`) and the files `0600`, whatever the umask; a directory another user
/// owns is refused and the cache kept in memory.
///
/// ```swift
/// let settings = FirestoreSettings()
/// settings.cacheSettings = PersistentCacheSettings(sizeBytes: 100 * 1024 * 1024 as NSNumber)
/// ```
public struct PersistentCacheSettings: LocalCacheSettingsConvertible, Hashable {
  /// The directory of the cache file.
  public let directory: URL
  /// The most bytes of documents kept (``FirestoreCacheSizeUnlimited`` for no limit).
  public let sizeBytes: Int

  /// A cache of 100 MB in the default directory.
  public init() {
    self.init(directory: Self.defaultDirectory, sizeBytes: LocalCacheSettings.defaultSizeBytes)
  }

  /// A cache of `sizeBytes` (at least 1 MB, or ``FirestoreCacheSizeUnlimited``) in the
  /// default directory.
  public init(sizeBytes: NSNumber) {
    self.init(directory: Self.defaultDirectory, sizeBytes: sizeBytes.intValue)
  }

  /// A cache of `sizeBytes` in `directory`.
  public init(directory: URL, sizeBytes: Int = LocalCacheSettings.defaultSizeBytes) {
    self.directory = directory
    self.sizeBytes = sizeBytes
  }

  /// `<application support>/firestore`; without a home directory, `firestore-<uid>` in the
  /// temporary directory, a name of this user's own (the cache refuses the directory if
  /// another user created it first).
  public static var defaultDirectory: URL {
    if let base = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first {
      return base.appendingPathComponent("firestore", isDirectory: true)
    }
    return FileManager.default.temporaryDirectory.appendingPathComponent("firestore-\(geteuid())", isDirectory: true)
  }

  /// ``LocalCacheSettings/persistent(directory:sizeBytes:)``.
  public var localCacheSettings: LocalCacheSettings { .persistent(directory: directory, sizeBytes: sizeBytes) }
}
