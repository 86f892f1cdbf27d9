#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The bytes of one accepted connection. Every wait also watches the server's stop pipe
/// and the idle timeout.
package struct HTTPSocketSource: HTTPByteSource {
  private let fd: Int32
  private let wake: Int32
  private let timeoutMilliseconds: Int
  private var scratch = [UInt8](repeating: 0, count: 64 * 1024)

  package init(fd: Int32, wake: Int32, timeoutMilliseconds: Int) {
    self.fd = fd
    self.wake = wake
    self.timeoutMilliseconds = timeoutMilliseconds
  }

  package mutating func read(into buffer: inout [UInt8]) throws {
    switch HTTPSocket.waitReadable(fd, wake: wake, timeoutMilliseconds: timeoutMilliseconds) {
    case .woken: throw HTTPReadError.stopped
    case .timedOut: throw HTTPReadError.timedOut
    case .readable: break
    }
    while true {
      guard let received = receive(flags: 0) else { continue }
      if received > 0 {
        buffer.append(contentsOf: scratch[0..<received])
        return
      }
      throw HTTPReadError.closed
    }
  }

  /// Takes what has arrived without waiting (no poll before the read), and waits as
  /// ``read(into:)`` does only when nothing has.
  package mutating func readMore(into buffer: inout [UInt8]) throws {
    while true {
      guard let received = receive(flags: Int32(MSG_DONTWAIT)) else { continue }
      if received > 0 {
        buffer.append(contentsOf: scratch[0..<received])
        return
      }
      if received == 0 { throw HTTPReadError.closed }
      if errno == EAGAIN || errno == EWOULDBLOCK { return try read(into: &buffer) }
      throw HTTPReadError.closed
    }
  }

  /// One `recv` into the scratch buffer: the byte count, 0 at the end, -1 with `errno`
  /// set, or `nil` when a signal interrupted it.
  private mutating func receive(flags: Int32) -> Int? {
    let fd = self.fd
    let received = scratch.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, flags) }
    if received < 0 && errno == EINTR { return nil }
    return received
  }
}
