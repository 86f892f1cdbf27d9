/// Writes a buffer larger than the processor's caches, a byte per cache line, so that the
/// code and data a call touches next come from memory, as they do when a server on the
/// same cores ran in between (its answer to the previous call). `client-cost --evict-mb`
/// runs it before each timed call, outside the timing.
final class CacheEviction {
  private let buffer: UnsafeMutableRawBufferPointer
  private var stamp: UInt8 = 0

  /// A sweep of `megabytes` MiB.
  init(megabytes: Int) {
    buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: megabytes << 20, alignment: 64)
  }

  deinit { buffer.deallocate() }

  /// Writes one byte in every 64 (a cache line), a different value each time so that no
  /// sweep is skipped as redundant.
  func sweep() {
    stamp &+= 1
    var offset = 0
    while offset < buffer.count {
      buffer[offset] = stamp
      offset += 64
    }
  }
}
