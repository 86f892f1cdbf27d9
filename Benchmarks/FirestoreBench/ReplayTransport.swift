import FirestoreClient
import Foundation

/// A ``FirestoreClient/Transport`` that answers every request at once from memory (status
/// 200, in one piece), so that a call through the client measures the client and nothing
/// of the network.
final class ReplayTransport: Transport {
  /// The body for a request; `nil` answers 404.
  let reply: @Sendable (HTTPRequest) -> Data?
  let enforcesDeadlines: Bool

  /// Answers every request with `body`.
  convenience init(body: Data) { self.init { _ in body } }

  /// Answers each request with the body `reply` picks for it. With `enforcesDeadlines`, the
  /// client runs no deadline timer of its own, as with the curl transport.
  init(enforcesDeadlines: Bool = false, reply: @escaping @Sendable (HTTPRequest) -> Data?) {
    self.enforcesDeadlines = enforcesDeadlines
    self.reply = reply
  }

  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    guard let body = reply(request) else {
      return HTTPResponse(status: 404, body: Data(#"{"error":{"code":404,"status":"NOT_FOUND","message":"no reply"}}"#.utf8))
    }
    return HTTPResponse(status: 200, headers: ["content-type": "application/json; charset=utf-8"], body: body)
  }
}
