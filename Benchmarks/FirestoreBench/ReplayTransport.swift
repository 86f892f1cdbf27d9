import FirestoreClient
import Foundation

/// A ``FirestoreClient/Transport`` that answers every request with one recorded body
/// (status 200, in one piece), so that a read through the client measures decoding and
/// nothing of the network.
final class ReplayTransport: Transport {
  /// The body every request gets.
  let body: Data

  init(body: Data) { self.body = body }

  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    HTTPResponse(status: 200, headers: ["content-type": "application/json; charset=utf-8"], body: body)
  }
}
