import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Keeps the persistent cache's directory and files private to the user running the
/// process, whatever the umask: the cache holds documents and pending writes.
enum CacheFileAccess {
  /// The mode of the cache directory: the owner alone.
  static let directoryMode: mode_t = 0o700
  /// The mode of the database file; SQLite gives its `-wal`, `-shm` and `-journal` files
  /// the database file's mode.
  static let fileMode: mode_t = 0o600

  /// Creates `directory` (and its parents) if needed, and makes it the owner's alone.
  /// A directory another user owns is refused: they could read or replace the cache.
  static func prepareDirectory(_ directory: URL) throws(CacheStorageError) {
    let path = directory.path
    do {
      try FileManager.default.createDirectory(
        at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: Int(directoryMode)])
    } catch {
      throw CacheStorageError(description: "cannot create \(path) (\(error))", isCorruption: false)
    }
    var info = stat()
    guard stat(path, &info) == 0 else { throw failure("cannot read \(path)") }
    guard info.st_mode & S_IFMT == S_IFDIR else {
      throw CacheStorageError(description: "\(path) is not a directory", isCorruption: false)
    }
    guard info.st_uid == geteuid() else {
      throw CacheStorageError(description: "\(path) belongs to another user", isCorruption: false)
    }
    if info.st_mode & 0o077 != 0, chmod(path, directoryMode) != 0 {
      throw failure("cannot make \(path) private")
    }
  }

  /// Creates the database file at `path` if needed, owner-only, and tightens the mode of
  /// an existing one and of its companion files.
  static func prepareFile(path: String) throws(CacheStorageError) {
    let fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, fileMode)
    guard fd >= 0 else { throw failure("cannot open \(path)") }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw failure("cannot read \(path)") }
    guard info.st_uid == geteuid() else {
      throw CacheStorageError(description: "\(path) belongs to another user", isCorruption: false)
    }
    if info.st_mode & 0o777 != fileMode, fchmod(fd, fileMode) != 0 { throw failure("cannot make \(path) private") }
    for suffix in ["-journal", "-wal", "-shm"] {
      var companion = stat()
      let name = path + suffix
      if lstat(name, &companion) == 0, companion.st_mode & S_IFMT == S_IFREG, companion.st_mode & 0o077 != 0 {
        _ = chmod(name, fileMode)
      }
    }
  }

  private static func failure(_ what: String) -> CacheStorageError {
    CacheStorageError(description: "\(what): \(String(cString: strerror(errno)))", isCorruption: false)
  }
}
