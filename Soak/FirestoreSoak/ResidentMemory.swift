#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// This process's resident set size, read from `/proc/self/status` (Linux).
enum ResidentMemory {
  /// The current resident set size in bytes, or `nil` where `/proc` is not available.
  static func current() -> Int? {
    guard let file = fopen("/proc/self/status", "r") else { return nil }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 256)
    while fgets(&line, Int32(line.count), file) != nil {
      let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      // "VmRSS:     23456 kB"
      guard text.hasPrefix("VmRSS:") else { continue }
      let digits = text.dropFirst(6).filter(\.isNumber)
      return Int(digits).map { $0 * 1024 }
    }
    return nil
  }
}
