#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// CPU time used by this whole process, every thread included (user + system), as
/// Python's `time.process_time()` counts it.
enum ProcessCPUTime {
  /// The CPU time used so far, in milliseconds.
  static func now() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
    return Double(spec.tv_sec) * 1000 + Double(spec.tv_nsec) / 1e6
  }
}
