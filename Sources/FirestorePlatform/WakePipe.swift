#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A pair of connected descriptors that wakes a thread sleeping in `poll` on
/// ``readDescriptor``: any thread may ``signal()`` it, without a lock, and the sleeper
/// ``drain()``s it once awake.
///
/// Both ends are non-blocking, so a signal never waits on a full buffer (a full one is
/// readable anyway), and closed on `exec`. Package-internal: not part of the public API.
package final class WakePipe: Sendable {
  /// The pair could not be opened (the process is out of descriptors).
  package struct OpenError: Error {
    /// `strerror`'s text.
    package var message: String
  }

  /// The end to poll for readability.
  package let readDescriptor: Int32
  private let writeDescriptor: Int32

  /// Opens the pair.
  package init() throws(OpenError) {
    var descriptors: [Int32] = [-1, -1]
    #if canImport(Darwin)
      guard pipe(&descriptors) == 0 else { throw OpenError(message: POSIXSocket.errnoText) }
      for descriptor in descriptors {
        POSIXSocket.setCloseOnExec(descriptor)
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
      }
    #else
      // Close-on-exec from the start: no child started meanwhile inherits them.
      let type = POSIXSocket.streamType | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
      guard socketpair(AF_UNIX, type, 0, &descriptors) == 0 else { throw OpenError(message: POSIXSocket.errnoText) }
    #endif
    readDescriptor = descriptors[0]
    writeDescriptor = descriptors[1]
  }

  deinit {
    close(readDescriptor)
    close(writeDescriptor)
  }

  /// Makes ``readDescriptor`` readable until the next ``drain()``.
  package func signal() {
    var byte: UInt8 = 1
    _ = write(writeDescriptor, &byte, 1)
  }

  /// Empties the pair, so that the next `poll` sleeps until the next ``signal()``. Whatever
  /// a short read (or an interrupted one) leaves only makes that `poll` return at once.
  package func drain() {
    var buffer = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
    while withUnsafeMutableBytes(of: &buffer, { read(readDescriptor, $0.baseAddress, $0.count) }) == MemoryLayout.size(ofValue: buffer) {}
  }
}
