import FirestorePlatform
import FirestoreWire
import Foundation

@testable import FirestoreClient

/// A ``Transport`` that plays a WebChannel Listen server under the test's control: it
/// answers handshakes with a new SID, forward POSTs with `[1,0,7]` and terminates with an
/// empty body, and hands every back-channel GET a stream the test writes frames into.
/// Faults are queued per request kind: a back channel or forward POST answering an HTTP
/// error, or a forward POST that never answers.
final class FakeWebChannelTransport: Transport {
  private struct State {
    var requests: [HTTPRequest] = []
    var backChannels: [AsyncThrowingStream<Data, any Error>.Continuation] = []
    var sessions = 0
    /// Statuses the next back channels answer with, in order.
    var backChannelFaults: [Int] = []
    /// What the next forward POSTs do, in order: answer with a status, or never answer.
    var forwardFaults: [ForwardFault] = []
    var held: [CheckedContinuation<Void, Never>] = []
  }

  private enum ForwardFault {
    case status(Int)
    case hold
  }

  private let state = Locked(State())

  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    let params = Self.params(request)
    state.withLock { $0.requests.append(request) }
    if request.method == "POST" && params["SID"] == nil {
      let sid = state.withLock { state in
        state.sessions += 1
        return "SID\(state.sessions)"
      }
      return HTTPResponse(
        status: 200, body: Data(WebChannelFrameWriter.frame(jsonBytes: Array(#"[[0,["c","\#(sid)","",8,12,30000]]]"#.utf8))))
    }
    if request.method == "POST" {
      switch state.withLock({ $0.forwardFaults.isEmpty ? nil : $0.forwardFaults.removeFirst() }) {
      case .status(let status): return HTTPResponse(status: status, body: Data())
      case .hold:
        // Ignores cancellation on purpose, as a wedged connection may: only `releaseHeld()` ends it.
        await withCheckedContinuation { continuation in state.withLock { $0.held.append(continuation) } }
        return HTTPResponse(status: 200, body: Data(WebChannelFrameWriter.frame(jsonBytes: Array("[1,0,7]".utf8))))
      case nil: break
      }
      return HTTPResponse(status: 200, body: Data(WebChannelFrameWriter.frame(jsonBytes: Array("[1,0,7]".utf8))))
    }
    if params["TYPE"] == "terminate" { return HTTPResponse(status: 200, body: Data()) }
    if let status = state.withLock({ $0.backChannelFaults.isEmpty ? nil : $0.backChannelFaults.removeFirst() }) {
      return HTTPResponse(status: status, body: Data())
    }
    let (stream, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
    state.withLock { $0.backChannels.append(continuation) }
    return HTTPResponse(status: 200, body: stream)
  }

  /// The decoded query parameters of `request`.
  static func params(_ request: HTTPRequest) -> [String: String] {
    let items = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
    return Dictionary(items.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { _, b in b })
  }

  /// Every request so far.
  var requests: [HTTPRequest] { state.withLock { $0.requests } }
  /// The back-channel GETs so far.
  var backChannelRequests: [HTTPRequest] { requests.filter { $0.method == "GET" && Self.params($0)["TYPE"] == "xmlhttp" } }
  /// How many back channels were opened.
  var backChannelCount: Int { state.withLock { $0.backChannels.count } }
  /// The handshake POSTs so far.
  var handshakeRequests: [HTTPRequest] { requests.filter { $0.method == "POST" && Self.params($0)["SID"] == nil } }
  /// The forward POSTs so far.
  var forwardRequests: [HTTPRequest] { requests.filter { $0.method == "POST" && Self.params($0)["SID"] != nil } }
  /// How many handshakes were answered.
  var sessionCount: Int { state.withLock { $0.sessions } }

  /// Makes the next back-channel GET (after those already queued) answer `status`; 400 is an
  /// unknown SID, 401 a rejected token.
  func rejectNextBackChannel(status: Int = 400) { state.withLock { $0.backChannelFaults.append(status) } }

  /// Makes the next forward POST (after those already queued) answer `status`.
  func rejectNextForwardPOST(status: Int) { state.withLock { $0.forwardFaults.append(.status(status)) } }

  /// Makes the next forward POST (after those already queued) wait until ``releaseHeld()``.
  func holdNextForwardPOST() { state.withLock { $0.forwardFaults.append(.hold) } }

  /// Lets every held forward POST answer.
  func releaseHeld() {
    let held = state.withLock { state in
      defer { state.held = [] }
      return state.held
    }
    for continuation in held { continuation.resume() }
  }

  /// Writes one frame `[[id, [message]], …]` to the newest back channel.
  func push(_ entries: [(Int, String)]) {
    let text = "[" + entries.map { "[\($0.0),[\($0.1)]]" }.joined(separator: ",") + "]"
    let frame = Data(WebChannelFrameWriter.frame(jsonBytes: Array(text.utf8)))
    _ = state.withLock { $0.backChannels.last?.yield(frame) }
  }

  /// Ends the newest back channel cleanly (as the server does after ~45 s).
  func endBackChannel() { state.withLock { $0.backChannels.last?.finish() } }

  /// Breaks the newest back channel with a transport error.
  func dropBackChannel() {
    state.withLock { $0.backChannels.last?.finish(throwing: FirestoreError(.unavailable, "connection reset")) }
  }
}
