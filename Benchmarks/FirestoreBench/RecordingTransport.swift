import FirestoreClient
import FirestorePlatform

/// A `CurlTransport` that keeps a copy of every request it sends: the paired scenarios
/// learn from one run of a client call which bytes it sends, and send those same requests
/// through curl and the bare transport.
final class RecordingTransport: Transport {
  private let transport = CurlTransport()
  private let sent = Locked<[HTTPRequest]>([])

  /// The requests sent so far, in order.
  var requests: [HTTPRequest] { sent.withLock { $0 } }

  var enforcesDeadlines: Bool { transport.enforcesDeadlines }

  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    sent.withLock { $0.append(request) }
    return try await transport.send(request)
  }
}
