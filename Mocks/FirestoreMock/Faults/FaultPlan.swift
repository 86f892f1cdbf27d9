/// How the faults picked for one request combine (see ``FaultInjector``).
struct FaultPlan: Sendable {
  /// Total delay before handling.
  var latencyMilliseconds = 0
  /// Whether to hold the request without answering.
  var stall = false
  /// The holds to wait at, in rule order, before handling (see ``Fault/hold(_:)``).
  var holds: [String] = []
  /// The response to send instead of calling the handler: an injected error or a raw
  /// replacement, whichever rule came first.
  var replacement: MockHTTPResponse?
  /// Response bytes to write before closing the connection.
  var dropAfterResponseBytes: Int?
  /// Body bytes to send before cutting the response.
  var truncateAfterBodyBytes: Int?

  /// Combines faults: latencies add up, holds are waited at in turn, any stall stalls, the first error or replacement
  /// wins, the smallest drop and truncate limits win.
  init(_ faults: [Fault]) {
    for fault in faults {
      switch fault {
      case .latency(let ms): latencyMilliseconds += max(0, ms)
      case .stall: stall = true
      case .hold(let name): holds.append(name)
      case .error(let status, let grpcStatus, let message):
        if replacement == nil { replacement = HTTPConnection.errorResponse(status: status, grpcStatus: grpcStatus, message: message) }
      case .replaceResponse(let status, let contentType, let body):
        if replacement == nil {
          replacement = MockHTTPResponse(status: status, headers: contentType.map { [("content-type", $0)] } ?? [], body: .complete(body))
        }
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
