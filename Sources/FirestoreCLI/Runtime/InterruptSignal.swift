import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// SIGINT and SIGTERM as an event a long-running command can wait for, so it can stop
/// cleanly (exit 0) instead of being killed.
enum InterruptSignal {
  /// Returns when SIGINT or SIGTERM arrives, or when the calling task is cancelled.
  static func wait() async {
    let (stream, continuation) = AsyncStream.makeStream(of: Void.self)
    var sources: [any DispatchSourceSignal] = []
    for number in [SIGINT, SIGTERM] {
      // The default action would end the process at once; the source sees the signal instead.
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler { continuation.yield() }
      source.resume()
      sources.append(source)
    }
    for await _ in stream { break }
    for source in sources { source.cancel() }
  }
}
