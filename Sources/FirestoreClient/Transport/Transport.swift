import Foundation

/// One HTTP request as the client hands it to a ``Transport``.
public struct HTTPRequest: Sendable, Equatable, CustomStringConvertible {
  /// `GET`, `POST`, `PATCH` or `DELETE`.
  public var method: String
  /// The absolute URL, query string included.
  public var url: URL
  /// Header fields, in order.
  public var headers: [String: String]
  /// The body, for `POST`/`PATCH`.
  public var body: Data?
  /// Whether sending the request twice has the effect of sending it once. A transport may
  /// resend such a request by itself (on a reused connection that the server closed before
  /// replying); it never resends one that is not, which may have been applied. By default
  /// `GET`, `HEAD`, `PUT`, `DELETE` and `OPTIONS` are.
  public var isIdempotent: Bool
  /// When the exchange must be over, body included; past it the transport fails it with
  /// `deadlineExceeded`. Only a transport whose ``Transport/enforcesDeadlines`` is true
  /// looks at it; the client keeps the deadline itself for the others.
  public var deadline: ContinuousClock.Instant?
  /// The caller reads the whole body before it looks at any of it (a unary call): a
  /// transport may then hand out the head with the body complete, in one hand-over to the
  /// caller instead of one per piece of the body. `false` for a streamed reply, whose
  /// head and pieces must come as they arrive.
  public var readsWholeBody = false

  /// Creates a request.
  public init(
    method: String, url: URL, headers: [String: String] = [:], body: Data? = nil, isIdempotent: Bool? = nil,
    deadline: ContinuousClock.Instant? = nil
  ) {
    self.method = method
    self.url = url
    self.headers = headers
    self.body = body
    self.isIdempotent = isIdempotent ?? ["GET", "HEAD", "PUT", "DELETE", "OPTIONS"].contains(method.uppercased())
    self.deadline = deadline
  }

  /// `METHOD path?query` and the body as text; never headers, which carry tokens.
  public var description: String {
    var s = "\(method) \(url.path)" + (url.query.map { "?" + $0 } ?? "")
    if let body { s += " " + String(decoding: body, as: UTF8.self) }
    return s
  }
}

/// The response to an ``HTTPRequest``: status and headers at once, the body as it arrives.
public struct HTTPResponse: Sendable {
  /// The HTTP status code.
  public var status: Int
  /// Header fields, names lower-cased.
  public var headers: [String: String]
  /// The body, chunk by chunk.
  public var body: HTTPBody

  /// Creates a response.
  public init(status: Int, headers: [String: String] = [:], body: HTTPBody) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  /// Creates a response whose body streams.
  public init(status: Int, headers: [String: String] = [:], body: AsyncThrowingStream<Data, any Error>) {
    self.init(status: status, headers: headers, body: HTTPBody(body))
  }

  /// Creates a response with a complete body.
  public init(status: Int, headers: [String: String] = [:], body: Data) {
    self.init(status: status, headers: headers, body: HTTPBody(body))
  }

  /// The most bytes a reply may hold: the whole body of a unary reply, and each element of
  /// a streamed one, counted after decompression. ``collectBody(limit:)``'s default.
  public static let maximumBodyBytes = 256 << 20

  /// The whole body, failing with `resourceExhausted` past `limit` bytes. Its indices start
  /// at 0.
  public func collectBody(limit: Int = HTTPResponse.maximumBodyBytes) async throws -> Data {
    if let whole = body.completeData, whole.startIndex == 0 {
      if whole.count > limit { throw Self.bodyTooLarge(limit: limit) }
      return whole
    }
    // A body that comes in pieces is then copied once, not once per doubling of the buffer.
    let announced = Self.reservation(announcedIn: headers, limit: limit)
    var data = Data()
    for try await chunk in body {
      if data.isEmpty, chunk.count >= announced, chunk.startIndex == 0 {
        // A body that came in one piece (most replies) is that piece, not a copy of it
        // (unless a transport handed out a slice, whose indices would not start at 0).
        data = chunk
      } else {
        if data.isEmpty { data.reserveCapacity(announced) }
        data.append(chunk)
      }
      if data.count > limit { throw Self.bodyTooLarge(limit: limit) }
    }
    return data
  }

  /// The most a reader reserves ahead of the bytes, on the server's word.
  static let reservedBodyBytes = 4 << 20

  /// The bytes to reserve for a body whose head is `headers`: its `Content-Length`, trusted
  /// only as far as `limit` and ``reservedBodyBytes``; 0 when it announces no valid length.
  static func reservation(announcedIn headers: [String: String], limit: Int) -> Int {
    headers["content-length"].flatMap(Int.init).map { min(max($0, 0), limit, reservedBodyBytes) } ?? 0
  }

  /// The error for a reply (or, of a streamed reply, `what`) past `limit` bytes.
  static func bodyTooLarge(limit: Int, what: String = "response body") -> FirestoreError {
    // The same reply would be as large again: a retry would only read it once more.
    FirestoreError(.resourceExhausted, "\(what) exceeds \(limit) bytes").with { $0.replyUnusable = true }
  }
}

/// Carries HTTP requests for the client.
///
/// The default is ``FirestoreSettings/defaultTransport``. Implement it to route requests
/// your own way, to record traffic, or to script responses in tests. A transport reports a
/// failure to connect or a dropped connection by throwing; any HTTP status, including
/// errors, is a response.
public protocol Transport: Sendable {
  /// Sends `request` and returns as soon as the status and headers are in.
  func send(_ request: HTTPRequest) async throws -> HTTPResponse

  /// Whether the transport fails a request past its ``HTTPRequest/deadline`` by itself
  /// (so the client need not run a timer of its own). `false` unless implemented.
  var enforcesDeadlines: Bool { get }
}

extension Transport {
  /// A transport does not keep deadlines unless it says so.
  public var enforcesDeadlines: Bool { false }
}
