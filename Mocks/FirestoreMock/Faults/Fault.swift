import FirestoreWire
import Foundation

/// One kind of misbehaviour the mock HTTP server can inject around a request.
///
/// Faults are applied by ``MockHTTPServer`` after the request (head and body) has been
/// read in full, so the connection stays in sync with the client whatever the fault does.
public enum Fault: Sendable, Equatable, CustomStringConvertible {
  /// Waits this long before handling the request. ``MockHTTPServer/stop()`` cuts the wait
  /// short and closes the connection without a response.
  case latency(milliseconds: Int)
  /// Answers with a Firestore JSON error body
  /// (`{"error":{"code":status,"message":message,"status":grpcStatus}}`) instead of calling
  /// the handler. The connection stays usable.
  case error(status: Int, grpcStatus: String, message: String)
  /// Writes at most this many bytes of the response (status line and headers included),
  /// then closes the connection; `0` closes it before any byte. When the whole response is
  /// shorter, it is sent in full and the connection is closed after it.
  case dropConnection(afterResponseBytes: Int)
  /// Sends only the first this-many body bytes of the response, then closes the connection.
  ///
  /// A `Content-Length` response keeps its full declared length, so the client sees a short
  /// body. A chunked (streaming) response sends the chunk that crosses the limit shortened to
  /// fit, and never sends the terminating zero-length chunk; later writes of the handler throw.
  case truncateStream(afterBytes: Int)
  /// Holds the request without answering until the server stops, the client hangs up or
  /// the stall limit (300 s) passes, then closes the connection without a response.
  case stall
  /// Holds the request until ``FaultInjector/release(_:)`` is called with this name, then
  /// handles it as usual; ``MockHTTPServer/stop()`` closes the connection without a response
  /// instead. ``FaultInjector/arrivals(at:)`` counts the requests that reached the hold, so
  /// a test can wait for a request to be in flight and then let it go: what a latency fault
  /// does, with the test instead of a timer deciding when.
  case hold(String)
  /// On a Listen back channel (`GET …/Listen/channel`), writes this many frames, then cuts
  /// the connection without ending the chunked body (the client sees a broken stream). The
  /// session survives: a reopen with `AID` re-sends every array above it. Ignored by other
  /// requests.
  case dropAfterFrames(Int)
  /// On a Listen back channel, writes this many frames, then holds the connection open
  /// without sending anything more until a newer back channel replaces it, the session
  /// ends, the server stops or the client hangs up. Ignored by other requests.
  case stallAfterFrames(Int)
  /// On a Listen back channel, writes this many frames, then discards the session and ends
  /// the response cleanly; later requests with that SID get `400`, as for a session the
  /// server forgot. On a forward POST or terminate the session is discarded before the
  /// request is handled (so it gets `400`).
  case closeSessionAfterFrames(Int)
  /// Answers with exactly this status, `Content-Type` and raw body instead of calling the
  /// handler: what a proxy, a captive portal or a broken server might send in Firestore's
  /// place. It models replies a well-behaved server never gives — JSON that is cut short
  /// but framed as complete, text that is not JSON, an HTML page, an empty body — and, on
  /// a Listen back channel, WebChannel frames that are broken or whose length prefix lies.
  /// The request is not handled, so nothing it asked for is applied (a commit does not
  /// land; a Listen session is left as it was). `contentType` `nil` sends no
  /// `Content-Type` header. The body goes out with a matching `Content-Length` and the
  /// connection stays usable; combine with a drop or truncate rule to cut it.
  ///
  /// ```swift
  /// // A load balancer's HTML page where JSON was expected.
  /// server.faults.add(FaultRule(route: "commit", fault: .replaceResponse(
  ///   status: 200, contentType: "text/html", body: Array("<html>Sign in</html>".utf8)), remaining: 1))
  /// ```
  case replaceResponse(status: Int, contentType: String?, body: [UInt8])

  /// A short, human-readable form, e.g. `error(503 UNAVAILABLE)`.
  public var description: String {
    switch self {
    case .latency(let ms): return "latency(\(ms) ms)"
    case .error(let status, let grpcStatus, let message): return "error(\(status) \(grpcStatus): \(message))"
    case .dropConnection(let n): return "dropConnection(after \(n) response bytes)"
    case .truncateStream(let n): return "truncateStream(after \(n) body bytes)"
    case .stall: return "stall"
    case .hold(let name): return "hold(\(name))"
    case .dropAfterFrames(let n): return "dropAfterFrames(\(n))"
    case .stallAfterFrames(let n): return "stallAfterFrames(\(n))"
    case .closeSessionAfterFrames(let n): return "closeSessionAfterFrames(\(n))"
    case .replaceResponse(let status, let contentType, let body):
      return "replaceResponse(\(status) \(contentType ?? "no Content-Type"), \(body.count) bytes)"
    }
  }

  /// The fault's member in the JSON form of a ``FaultRule`` (see ``FaultRule/parse(json:)``),
  /// e.g. `{"latencyMs":50}` or `{"error":{"status":503,"grpcStatus":"UNAVAILABLE","message":"m"}}`.
  public var json: JSONValue { .object([jsonMember]) }

  /// The `(name, value)` member that ``json`` wraps.
  var jsonMember: (String, JSONValue) {
    switch self {
    case .latency(let ms): return ("latencyMs", .integer(Int64(ms)))
    case .error(let status, let grpcStatus, let message):
      return ("error", .object([("status", .integer(Int64(status))), ("grpcStatus", .string(grpcStatus)), ("message", .string(message))]))
    case .dropConnection(let n): return ("dropAfterBytes", .integer(Int64(n)))
    case .truncateStream(let n): return ("truncateAfterBytes", .integer(Int64(n)))
    case .stall: return ("stall", .bool(true))
    case .hold(let name): return ("hold", .string(name))
    case .dropAfterFrames(let n): return ("dropAfterFrames", .integer(Int64(n)))
    case .stallAfterFrames(let n): return ("stallAfterFrames", .integer(Int64(n)))
    case .closeSessionAfterFrames(let n): return ("closeSessionAfterFrames", .integer(Int64(n)))
    case .replaceResponse(let status, let contentType, let body):
      var members: [(String, JSONValue)] = [("status", .integer(Int64(status)))]
      if let contentType { members.append(("contentType", .string(contentType))) }
      // Text when it is UTF-8 (the usual case, readable in the request log), else base64.
      if let text = String(validating: body, as: UTF8.self) {
        members.append(("body", .string(text)))
      } else {
        members.append(("bodyBase64", .string(Data(body).base64EncodedString())))
      }
      return ("replaceResponse", .object(members))
    }
  }

  /// The gRPC status name an HTTP status stands for (`RPCCode(httpStatus:)`), used
  /// when a JSON fault rule names only the HTTP status. `409` maps to `ABORTED` (the
  /// retryable one).
  public static func grpcStatusName(forHTTPStatus status: Int) -> String {
    RPCCode(httpStatus: status).statusName
  }
}
