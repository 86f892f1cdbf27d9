import FirestoreWire
import Foundation

/// The Listen channel's requests, declared once: the WebChannel handshake, back channel,
/// forward channel and terminate, each with its HTTP method, its URL at the host's root, its
/// headers, and how a failed one is sent again. ``ListenChannel`` picks one; it spells no
/// method or path.
struct ListenChannelRPC: Sendable {
  /// The four requests of a WebChannel session (see `Docs/Protocol/WebChannel.md`).
  enum Kind: String, Sendable {
    /// `POST`: opens the session, carrying the first requests and the credentials.
    case handshake
    /// `GET`: the streaming reply that carries the server's messages.
    case backChannel = "back channel"
    /// `POST`: later requests of the session.
    case forward = "forward POST"
    /// `GET`: ends the session.
    case terminate
  }

  /// Which request.
  let kind: Kind
  /// The request as sent.
  let request: HTTPRequest
  /// How a failure is retried: ``RetryClass/channel(resendable:)``.
  var retryClass: RetryClass { .channel(resendable: request.isIdempotent) }

  /// Request `kind` to the server at `baseURL` with the query `params` (from
  /// `WebChannelURL`) and, for a POST, the form `body`.
  init(_ kind: Kind, baseURL: String, params: [(String, String)], body: String? = nil) throws(FirestoreError) {
    // The channel lives at the host root, not under /v1.
    guard let url = URL(string: baseURL + WebChannelURL.path + "?" + WebChannelURL.query(params)) else {
      throw FirestoreError(.invalidArgument, "cannot form a Listen channel URL from \"\(baseURL)\"")
    }
    // Every channel request has a connection of its own. The emulator closes the
    // connection after each channel reply without announcing it, so a pooled one would
    // fail the next request to take it, and a commit cannot be sent again.
    var headers = ["Connection": "close"]
    if body != nil { headers["Content-Type"] = "application/x-www-form-urlencoded" }
    let method = kind == .handshake || kind == .forward ? "POST" : "GET"
    self.kind = kind
    // The server de-duplicates a forward POST by its map ids (`ofs`) and a back channel
    // resumes at the last array id; a handshake sent twice would open a second session.
    request = HTTPRequest(method: method, url: url, headers: headers, body: body.map { Data($0.utf8) }, isIdempotent: kind != .handshake)
  }

  /// When a failed channel request is sent again: twice at most, after 20 and then 200 ms
  /// (see ``RetryClass/channel(resendable:)`` for which failures).
  static var resendPolicy: RetryPolicy {
    var policy = RetryPolicy(maximumAttempts: 3, initialBackoff: .milliseconds(20), maximumBackoff: .milliseconds(200), multiplier: 10)
    policy.jitter = { $0 }
    return policy
  }

  /// The error for a reply other than 200 to this request: the server's message when it
  /// sent a Firestore error body. A 400 means the session is unknown or gone, and a back
  /// channel's failure is the stream's, so both are `unavailable` (a new session fixes
  /// them), except a refused token (401), which the owner refreshes before reconnecting.
  func error(status: Int, contentType: String?, body: Data) -> FirestoreError {
    let reply = ErrorReply.error(status: status, contentType: contentType, body: body, method: request.method, path: WebChannelURL.path)
    let code: FirestoreError.Code
    switch (kind, status) {
    case (_, 401): code = .unauthenticated
    case (.backChannel, _), (_, 400): code = .unavailable
    default: code = reply.canonicalCode
    }
    let detail = reply.serverStatus != nil ? ": " + reply.message : ""
    return reply.with {
      $0.code = code
      $0.message = "the WebChannel \(kind.rawValue) answered HTTP \(status)" + detail
    }
  }
}
