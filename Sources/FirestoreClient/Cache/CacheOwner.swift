import FirestorePlatform
import FirestoreWire
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Who holds queued write batches in a shared cache file: each ``LocalStore`` sends only its
/// own, and takes over the batches of owners that are gone.
///
/// An owner's name is `<process ID>/<UUID>`. An owner of another process is gone when that
/// process no longer exists; one of this process when its store has closed.
enum CacheOwner {
  /// The owners of this process whose stores are open.
  private static let live = Locked(Set<String>())

  /// A new owner name, registered as open.
  static func make() -> String {
    let owner = "\(getpid())/\(UUID().uuidString)"
    live.withLock { _ = $0.insert(owner) }
    return owner
  }

  /// Marks `owner` closed: its batches may be taken over.
  static func close(_ owner: String) {
    live.withLock { _ = $0.remove(owner) }
  }

  /// Whether `owner`'s store is gone.
  static func isAbandoned(_ owner: String) -> Bool {
    guard let slash = owner.firstIndex(of: "/"), let pid = Int32(owner[..<slash]) else { return true }
    if pid == getpid() { return !live.withLock { $0.contains(owner) } }
    // Signal 0 checks that the process exists; EPERM means it exists under another user.
    return kill(pid, 0) != 0 && errno == ESRCH
  }
}
