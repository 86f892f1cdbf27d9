import FirestoreClient
import FirestorePlatform
import FirestoreWire
import Foundation

/// A ``FirestoreClient/Transport`` that passes every request on to another one and counts
/// what crosses the wire: requests (round trips), request body bytes, and response body
/// bytes as they stream in. It also keeps the method, path and body of recent requests,
/// so a test can check what was asked (say, that a query carried an ID-only projection).
///
/// Listens count too: each WebChannel request is one round trip and its streamed body is
/// counted as it arrives.
///
/// ```swift
/// let counter = CountingTransport(wrapping: FirestoreSettings.defaultTransport)
/// let settings = FirestoreSettings.emulator(host: "127.0.0.1:8080")
/// settings.transport = counter
/// // ... use a Firestore with these settings ...
/// print(counter.totals.requests, counter.count(matching: ":batchGet"))
/// ```
public final class CountingTransport: Transport {
  /// Counts so far.
  public struct Totals: Sendable, Equatable {
    /// Requests sent (round trips).
    public var requests = 0
    /// Request body bytes sent.
    public var bytesSent = 0
    /// Response body bytes received.
    public var bytesReceived = 0

    /// All zero.
    public init() {}

    /// The difference `self - earlier`, for the cost of one stretch of work.
    public func since(_ earlier: Totals) -> Totals {
      var d = Totals()
      d.requests = requests - earlier.requests
      d.bytesSent = bytesSent - earlier.bytesSent
      d.bytesReceived = bytesReceived - earlier.bytesReceived
      return d
    }
  }

  /// One request as recorded: no headers (they carry tokens).
  public struct RecordedRequest: Sendable, Equatable {
    /// `GET`, `POST`, ...
    public var method: String
    /// The URL path, such as `/v1/projects/p/databases/(default)/documents:batchGet`.
    public var path: String
    /// The request body as text (empty without one).
    public var body: String
  }

  /// The transport requests go to.
  public let base: any Transport
  /// How many recent requests are kept for ``requests``.
  public let recordLimit: Int
  private let state = Locked((totals: Totals(), recent: [RecordedRequest]()))

  /// Wraps `base`, keeping the last `recordLimit` requests.
  public init(wrapping base: any Transport = FirestoreSettings.defaultTransport, recordLimit: Int = 10_000) {
    self.base = base
    self.recordLimit = max(0, recordLimit)
  }

  /// The counts so far.
  public var totals: Totals { state.withLock { $0.totals } }

  /// The recent requests, oldest first.
  public var requests: [RecordedRequest] { state.withLock { $0.recent } }

  /// How many recorded requests have a path ending in `pathSuffix` (`":batchGet"`,
  /// `":runQuery"`, `"/Listen/channel"`...).
  public func count(matching pathSuffix: String) -> Int {
    state.withLock { $0.recent.filter { $0.path.hasSuffix(pathSuffix) }.count }
  }

  /// Sets every count to zero and forgets the recorded requests.
  public func reset() {
    state.withLock { $0 = (Totals(), []) }
  }

  /// Whether ``base`` keeps request deadlines itself.
  public var enforcesDeadlines: Bool { base.enforcesDeadlines }

  /// Counts the request, sends it through ``base``, and counts the response body as it
  /// streams through.
  public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    let record = RecordedRequest(
      method: request.method, path: request.url.path, body: request.body.map { String(decoding: $0, as: UTF8.self) } ?? "")
    let limit = recordLimit
    state.withLock { state in
      state.totals.requests += 1
      state.totals.bytesSent += request.body?.count ?? 0
      if limit > 0 {
        if state.recent.count >= limit { state.recent.removeFirst(state.recent.count - limit + 1) }
        state.recent.append(record)
      }
    }
    var response = try await base.send(request)
    // Counted as the reader takes each chunk: nothing is read ahead of it.
    response.body = response.body.observingChunks { [state] chunk in state.withLock { $0.totals.bytesReceived += chunk.count } }
    return response
  }
}
