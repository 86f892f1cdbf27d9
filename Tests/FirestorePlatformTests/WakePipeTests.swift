import FirestorePlatform
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// ``WakePipe``: a signal makes the read end readable until a drain, however many came.
@Suite("Platform: wake pipe")
struct WakePipeTests {
  /// Whether the read end is readable now (a poll that does not wait).
  private func isReadable(_ pipe: WakePipe) -> Bool {
    var descriptor = pollfd(fd: pipe.readDescriptor, events: Int16(POLLIN), revents: 0)
    return poll(&descriptor, 1, 0) == 1 && descriptor.revents & Int16(POLLIN) != 0
  }

  @Test("quiet until signalled; readable after a signal; quiet again after a drain")
  func signalAndDrain() throws {
    let pipe = try WakePipe()
    #expect(!isReadable(pipe))
    pipe.signal()
    #expect(isReadable(pipe))
    pipe.drain()
    #expect(!isReadable(pipe))
    // A drain of an empty pipe returns at once.
    pipe.drain()
    #expect(!isReadable(pipe))
  }

  @Test("more signals than the buffer holds never block, and one drain empties them all")
  func fullPipe() throws {
    let pipe = try WakePipe()
    // More than the kernel buffers: these fill it, and the rest are dropped.
    for _ in 0..<100_000 { pipe.signal() }
    #expect(isReadable(pipe))
    pipe.drain()
    #expect(!isReadable(pipe))
  }
}
