/// How the faults picked for one request combine (see ``FaultInjector``).
struct FaultPlan: Sendable {
  /// Total delay before handling.
  var latencyMilliseconds = 0
  /// Whether to hold the request without answering.
  var stall = false
  /// The error response to send instead of calling the handler.
  var error: (status: Int, grpcStatus: String, message: String)?
  /// Response bytes to write before closing the connection.
  var dropAfterResponseBytes: Int?
  /// Body bytes to send before cutting the response.
  var truncateAfterBodyBytes: Int?

  /// Combines faults: latencies add up, any stall stalls, the first error wins, the
  /// smallest drop and truncate limits win.
  init(_ faults: [Fault]) {
    for fault in faults {
      switch fault {
      case .latency(let ms): latencyMilliseconds += max(0, ms)
      case .stall: stall = true
      case .error(let status, let grpcStatus, let message):
        if error == nil { error = (status, grpcStatus, message) }
      case .dropConnection(let n): dropAfterResponseBytes = min(dropAfterResponseBytes ?? Int.max, max(0, n))
      case .truncateStream(let n): truncateAfterBodyBytes = min(truncateAfterBodyBytes ?? Int.max, max(0, n))
      // Listen back-channel faults are applied by the Listen channel handler itself.
      case .dropAfterFrames, .stallAfterFrames, .closeSessionAfterFrames: break
      }
    }
  }

  /// Whether the connection must be closed after the response.
  var closesConnection: Bool { dropAfterResponseBytes != nil || truncateAfterBodyBytes != nil }
}
