import FirestorePlatform
import FirestoreWire
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Records which tests reached the emulator, for `scripts/test.sh` to count: one line per
/// test case in the file named by `FIRESTORE_TEST_LEDGER`.
public enum Ledger {
  private static let path = ProcessInfo.processInfo.environment["FIRESTORE_TEST_LEDGER"]
  private static let written = Locked(Set<String>())

  /// Notes that the current test talks to `backend` (only the emulator's are written).
  public static func record(_ backend: Backend) {
    guard backend.reachesEmulator, let path, let test = Test.current else { return }
    let line = "\(test.id)\n"
    guard written.withLock({ $0.insert(line).inserted }) else { return }
    // O_APPEND writes of one short line are atomic, so parallel tests do not interleave.
    let fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0o644)
    guard fd >= 0 else { return }
    _ = line.withCString { write(fd, $0, strlen($0)) }
    close(fd)
  }
}
