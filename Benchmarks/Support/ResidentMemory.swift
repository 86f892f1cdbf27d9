#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// This process's resident memory, read from `/proc/self/status` (Linux); `nil` where
/// `/proc` is not available.
///
/// ```swift
/// _ = ResidentMemory.resetPeak()
/// let before = ResidentMemory.current()
/// work()
/// print(before, ResidentMemory.peak())
/// ```
public enum ResidentMemory {
  /// The current resident set size in bytes (`VmRSS`).
  public static func current() -> Int? { field("VmRSS:") }

  /// The largest resident set size in bytes since the process started or since the last
  /// ``resetPeak()`` (`VmHWM`, the high-water mark).
  public static func peak() -> Int? { field("VmHWM:") }

  /// Resets the high-water mark to the current resident set size (writes `5` to
  /// `/proc/self/clear_refs`, Linux 4.0 and later), so that ``peak()`` measures from now.
  /// Returns `false` when the kernel does not allow it.
  public static func resetPeak() -> Bool {
    guard let file = fopen("/proc/self/clear_refs", "w") else { return false }
    defer { fclose(file) }
    return fputs("5", file) >= 0 && fflush(file) == 0
  }

  /// Hands the allocator's free memory back to the kernel (glibc's `malloc_trim(0)`), so
  /// that memory freed by earlier work no longer counts as resident. Returns `false` where
  /// the allocator has no such call.
  @discardableResult
  public static func releaseFreeMemory() -> Bool {
    // Looked up at run time: the C library module does not export <malloc.h>.
    typealias Trim = @convention(c) (Int) -> Int32
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return false }
    _ = unsafeBitCast(symbol, to: Trim.self)(0)
    return true
  }

  /// The value of a `Name:   1234 kB` line of `/proc/self/status`, in bytes.
  private static func field(_ name: String) -> Int? {
    guard let file = fopen("/proc/self/status", "r") else { return nil }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 256)
    while fgets(&line, Int32(line.count), file) != nil {
      let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      guard text.hasPrefix(name) else { continue }
      let digits = text.dropFirst(name.count).filter(\.isNumber)
      return Int(digits).map { $0 * 1024 }
    }
    return nil
  }
}
