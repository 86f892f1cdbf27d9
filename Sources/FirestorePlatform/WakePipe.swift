#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A pipe that wakes a thread sleeping in `poll` on ``readDescriptor``: any thread may
/// ``signal()`` it, without a lock, and the sleeper ``drain()``s it once awake.
///
/// Both ends are non-blocking, so a signal never waits on a full pipe (a full pipe is
/// readable anyway), and closed on `exec`. Package-internal: not part of the public API.
package final class WakePipe: Sendable {
  /// The end to poll for readability.
  package let readDescriptor: Int32
  private let writeDescriptor: Int32

  /// Opens the pipe.
  /// - Throws: the `errno` text when the process is out of descriptors.
  package init() throws(WakePipeError) {
    var descriptors: [Int32] = [-1, -1]
    guard pipe(&descriptors) == 0 else { throw WakePipeError(message: POSIXSocket.errnoText) }
    for descriptor in descriptors {
      POSIXSocket.setCloseOnExec(descriptor)
      _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    }
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

  /// Empties the pipe, so that the next `poll` sleeps until the next ``signal()``.
  package func drain() {
    var buffer = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
    while withUnsafeMutableBytes(of: &buffer, { read(readDescriptor, $0.baseAddress, $0.count) }) == MemoryLayout.size(ofValue: buffer) {}
  }
}

/// A ``WakePipe`` could not be opened.
package struct WakePipeError: Error, Sendable {
  /// What the system said.
  package let message: String
}
