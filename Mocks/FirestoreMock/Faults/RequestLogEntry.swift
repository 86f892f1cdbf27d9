import FirestoreWire
import Foundation

/// One request as recorded by a ``RequestLog``.
public struct RequestLogEntry: Sendable {
  /// A number unique within the log, increasing in arrival order.
  public var id: Int
  /// When the request (head and body) had been read.
  public var time: Date
  /// The method, upper case.
  public var method: String
  /// The percent-decoded path.
  public var path: String
  /// The raw query string (after `?`, still percent-encoded; empty when there is none).
  public var query: String
  /// The header fields, names lower-cased.
  public var headers: [(name: String, value: String)]
  /// The size of the (de-chunked) request body in bytes.
  public var bodySize: Int
  /// The status of the response the server chose: the handler's, an injected error's or
  /// the server's own (400, 413, …). `nil` while the handler runs, and when no response was
  /// chosen at all (a stall, or the server stopped during a latency fault). A response cut
  /// by a drop or truncate fault keeps the status it would have had.
  public var status: Int?
  /// The injected faults applied to the request, in rule order.
  public var faults: [Fault]
  /// The size of the response body as sent, after any compression; `nil` until a complete
  /// body was chosen (and for streamed bodies).
  public var responseBodySize: Int?
  /// The response's content coding (`gzip`), or `nil` when the body went out as it is.
  public var responseEncoding: String?

  /// Creates an entry.
  public init(
    id: Int, time: Date, method: String, path: String, query: String, headers: [(name: String, value: String)], bodySize: Int,
    status: Int?, faults: [Fault]
  ) {
    self.id = id
    self.time = time
    self.method = method
    self.path = path
    self.query = query
    self.headers = headers
    self.bodySize = bodySize
    self.status = status
    self.faults = faults
  }

  /// A header's value as the JSON form shows it: credentials keep only their scheme
  /// (`Bearer <redacted>`), since the request log may be printed or saved.
  static func loggable(_ header: (name: String, value: String)) -> String {
    guard header.name == "authorization" || header.name == "x-firebase-appcheck" else { return header.value }
    let scheme = header.value.split(separator: " ", maxSplits: 1).first.map(String.init) ?? ""
    return header.value.contains(" ") ? "\(scheme) <redacted>" : "<redacted>"
  }

  /// The entry as JSON, for an admin endpoint: `{"id":0,"time":"2026-…Z","method":"GET",
  /// "path":"/v1/…","query":"x=1","headers":[["host","…"]],"bodySize":0,"status":200,
  /// "faults":[{"latencyMs":50}]}` (`status` is null when no response was chosen;
  /// `authorization` shows only its scheme).
  public var json: JSONValue {
    let interval = time.timeIntervalSince1970
    let seconds = interval.rounded(.down)
    let timestamp = Timestamp(seconds: Int64(seconds), nanoseconds: Int32(((interval - seconds) * 1e9).rounded(.down)))
    return .object([
      ("id", .integer(Int64(id))), ("time", .string(timestamp.rfc3339)), ("method", .string(method)), ("path", .string(path)),
      ("query", .string(query)), ("headers", .array(headers.map { .array([.string($0.name), .string(Self.loggable($0))]) })),
      ("bodySize", .integer(Int64(bodySize))), ("status", status.map { .integer(Int64($0)) } ?? .null),
      ("faults", .array(faults.map(\.json))),
    ])
  }
}
