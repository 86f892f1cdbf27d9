import FirestorePlatform
import FirestoreWire
import Foundation

@testable import FirestoreClient

/// A ``Transport`` for unit tests: it expects a given sequence of requests and answers
/// each with a canned response.
///
/// A request that differs from the next expected one (method, path, query or JSON body)
/// fails with an `internal` error whose message shows what was sent beside what was
/// expected, line by line; so does a request beyond the script. ``unmetExpectations``
/// lists what was never asked.
///
/// ```swift
/// let transport = ScriptedTransport([
///   .init(method: "POST", path: "/v1/projects/p/databases/(default)/documents:commit",
///         body: #"{"writes":[]}"#, response: .json(200, #"{"commitTime":"2024-01-01T00:00:00Z"}"#)),
/// ])
/// var settings = FirestoreSettings.emulator(host: "127.0.0.1:1")
/// settings.transport = transport
/// ```
final class ScriptedTransport: Transport {
  /// A canned response.
  struct Response: Sendable {
    /// The HTTP status.
    var status: Int
    /// The body, delivered in these chunks (to test incremental parsing).
    var chunks: [Data]
    /// An error thrown instead of answering (a dropped connection), or, after `chunks`
    /// when there are any, ending the body (a reply cut short).
    var error: FirestoreError?

    /// A JSON response with the given status; `chunkSize` splits the body into pieces.
    static func json(_ status: Int, _ body: String, chunkSize: Int? = nil) -> Response {
      let data = Data(body.utf8)
      guard let size = chunkSize, size > 0 else { return Response(status: status, chunks: [data]) }
      let chunks = stride(from: 0, to: data.count, by: size).map { data[$0..<min($0 + size, data.count)] }
      return Response(status: status, chunks: chunks.map { Data($0) })
    }

    /// A transport failure instead of a response.
    static func failure(_ error: FirestoreError) -> Response { Response(status: 0, chunks: [], error: error) }

    /// A JSON response whose body breaks with `error` after `body` (a connection lost
    /// mid-reply).
    static func broken(_ status: Int, _ body: String, _ error: FirestoreError) -> Response {
      Response(status: status, chunks: [Data(body.utf8)], error: error)
    }
  }

  /// One expected request and its answer.
  struct Exchange: Sendable {
    /// The expected method.
    var method: String
    /// The expected URL path, unescaped (`/v1/projects/p/databases/(default)/documents/a/b`).
    var path: String
    /// The expected query string (unescaped, `&`-joined), or `nil` to not check it.
    var query: String?
    /// The expected JSON body, compared as JSON (member order ignored); `nil` to not check it.
    var body: String?
    /// The answer.
    var response: Response

    /// Creates an exchange.
    init(method: String, path: String, query: String? = nil, body: String? = nil, response: Response) {
      self.method = method
      self.path = path
      self.query = query
      self.body = body
      self.response = response
    }
  }

  private let script: Locked<[Exchange]>
  private let log = Locked<[HTTPRequest]>([])

  /// Creates a transport that expects `exchanges` in order.
  init(_ exchanges: [Exchange]) { script = Locked(exchanges) }

  /// Every request received, in order.
  var requests: [HTTPRequest] { log.withLock { $0 } }

  /// The exchanges not yet requested.
  var unmetExpectations: [Exchange] { script.withLock { $0 } }

  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    log.withLock { $0.append(request) }
    let gotPath = request.url.path
    let gotQuery = request.url.query?.removingPercentEncoding
    let gotBody = request.body.flatMap { try? JSONParser.parse($0) }
    let next = script.withLock { $0.first }
    guard let next else {
      throw FirestoreError(.internal, "ScriptedTransport: unexpected request beyond the script:\n  got:  \(request)")
    }
    var mismatches: [String] = []
    if next.method != request.method { mismatches.append("method: got \(request.method), want \(next.method)") }
    if next.path != gotPath { mismatches.append("path:\n  got:  \(gotPath)\n  want: \(next.path)") }
    if let want = next.query, want != (gotQuery ?? "") { mismatches.append("query:\n  got:  \(gotQuery ?? "")\n  want: \(want)") }
    if let want = next.body {
      let wantJSON = try? JSONParser.parse(want)
      if Self.canonical(wantJSON) != Self.canonical(gotBody) {
        mismatches.append("body:\n  got:  \(Self.canonical(gotBody))\n  want: \(Self.canonical(wantJSON))")
      }
    }
    if !mismatches.isEmpty {
      throw FirestoreError(.internal, "ScriptedTransport: request does not match the script:\n" + mismatches.joined(separator: "\n"))
    }
    script.withLock { _ = $0.removeFirst() }
    let chunks = next.response.chunks
    let error = next.response.error
    if let error, chunks.isEmpty { throw error }
    return HTTPResponse(
      status: next.response.status, headers: ["content-type": "application/json"],
      body: AsyncThrowingStream { c in
        for chunk in chunks { c.yield(chunk) }
        c.finish(throwing: error)
      })
  }

  /// JSON text with object members sorted, so that member order does not matter.
  static func canonical(_ json: JSONValue?) -> String {
    guard let json else { return "(none)" }
    func sorted(_ v: JSONValue) -> JSONValue {
      switch v {
      case .array(let a): return .array(a.map(sorted))
      case .object(let o): return .object(o.map { ($0.0, sorted($0.1)) }.sorted { $0.0 < $1.0 })
      default: return v
      }
    }
    return JSONWriter.string(sorted(json))
  }
}
