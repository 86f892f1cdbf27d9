import FirestoreWire
import Foundation
import Synchronization

@testable import FirestoreClient

/// A ``Transport`` that plays a WebChannel Listen server under the test's control: it
/// answers handshakes with a new SID, forward POSTs with `[1,0,7]` and terminates with an
/// empty body, and hands every back-channel GET a stream the test writes frames into.
final class FakeWebChannelTransport: Transport {
  private struct State {
    var requests: [HTTPRequest] = []
    var backChannels: [AsyncThrowingStream<Data, any Error>.Continuation] = []
    var sessions = 0
    var rejectNextBackChannel = false
  }

  private let state = Mutex(State())

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
      return HTTPResponse(status: 200, body: Data(WebChannelFrameWriter.frame(jsonBytes: Array("[1,0,7]".utf8))))
    }
    if params["TYPE"] == "terminate" { return HTTPResponse(status: 200, body: Data()) }
    if state.withLock({ state in
      defer { state.rejectNextBackChannel = false }
      return state.rejectNextBackChannel
    }) {
      return HTTPResponse(status: 400, body: Data())
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
  /// How many handshakes were answered.
  var sessionCount: Int { state.withLock { $0.sessions } }

  /// Makes the next back-channel GET answer 400 (unknown SID).
  func rejectNextBackChannel() { state.withLock { $0.rejectNextBackChannel = true } }

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
