import FirestoreWire
import Foundation

/// The default ``Transport``: HTTP/1.1 on POSIX sockets, with TLS through OpenSSL for
/// `https`, a pool of keep-alive connections and Nagle's algorithm off.
///
/// Each request runs on a thread of its own with blocking socket calls, so a long-lived
/// response (a listen back channel) costs a parked thread and nothing else; on Linux,
/// URLSession keeps such a response polling and burns most of a core for as long as it
/// stays open. For `https` the server's certificate is always verified (system roots, or
/// `trustedCertificates`) and its name checked against the host.
///
/// A connection goes back to the pool only after its response was read to the end and the
/// server did not ask to close it; one that was cancelled, failed or cut short is closed.
/// A request with the header `Connection: close` is sent that way and its connection is
/// closed after the response (other `Connection` values are dropped: the transport manages
/// keep-alive itself). A pooled connection that the server closed meanwhile is noticed
/// before reuse; one that fails before any reply byte is replaced once for a request that
/// did not go out whole or is ``HTTPRequest/isIdempotent`` — never for one the server may
/// have applied. Cancelling
/// the calling task, or the task reading the body, shuts the connection down at once.
///
/// ```swift
/// var settings = FirestoreSettings.emulator(host: "127.0.0.1:8080")
/// settings.transport = SocketTransport(maximumIdleConnectionsPerHost: 4)
/// let db = Firestore(projectID: "demo", settings: settings)
/// ```
public final class SocketTransport: Transport {
  /// The transport shared by every ``Firestore`` instance that has no transport of its own.
  public static let shared = SocketTransport()

  private let maximumIdleConnectionsPerHost: Int
  let connectTimeout: Duration
  private let idleTimeout: Duration
  private let fallback: (any Transport)?
  /// The PEM bundle of trusted roots for TLS, or `nil` for the system's.
  let trustedCertificates: String?
  private let idle = Locked<[SocketConnection.Endpoint: [SocketConnection]]>([:])

  /// Creates a transport with its own connection pool.
  /// - Parameters:
  ///   - maximumIdleConnectionsPerHost: how many idle keep-alive connections to keep per
  ///     host; more may be open while requests run concurrently.
  ///   - connectTimeout: how long opening a connection may take.
  ///   - idleTimeout: an idle connection older than this is closed rather than reused, so
  ///     that it is not reused just as the server times it out.
  ///   - trustedCertificates: the path of a PEM bundle of root certificates to trust for
  ///     `https` instead of the system's (a private CA); verification itself is always on.
  ///   - fallback: a transport to carry `https` requests instead of this one's TLS (for
  ///     example ``URLSessionTransport``); `nil` uses this transport's own.
  public init(
    maximumIdleConnectionsPerHost: Int = 8, connectTimeout: Duration = .seconds(10), idleTimeout: Duration = .seconds(30),
    trustedCertificates: String? = nil, fallback: (any Transport)? = nil
  ) {
    self.maximumIdleConnectionsPerHost = max(0, maximumIdleConnectionsPerHost)
    self.connectTimeout = connectTimeout
    self.idleTimeout = idleTimeout
    self.trustedCertificates = trustedCertificates
    self.fallback = fallback
  }

  deinit {
    for connection in idle.withLock({ $0.values.joined() }) { connection.close() }
  }

  /// Sends `request` and returns once the status and headers are in; the body streams.
  ///
  /// - Throws: `unavailable` when the host cannot be reached or the connection fails or
  ///   the server's reply is not valid HTTP/1.1 (the message says which), `cancelled` when
  ///   the calling task is cancelled, `invalidArgument` for a header that would break the
  ///   request's framing (a line break in a name or value).
  public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    let scheme = request.url.scheme?.lowercased()
    if scheme == "https", let fallback { return try await fallback.send(request) }
    guard scheme == "http" || scheme == "https" else {
      throw FirestoreError(.invalidArgument, "cannot send to \(request.url.absoluteString): only http and https are supported")
    }
    let exchange = try SocketExchange(request: request, transport: self)
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { head in
        exchange.start(head)
      }
    } onCancel: {
      exchange.cancel()
    }
  }

  /// An idle connection to `endpoint` that is still good, or a new one.
  func connection(to endpoint: SocketConnection.Endpoint) throws -> (SocketConnection, reused: Bool) {
    while let candidate = idle.withLock({ $0[endpoint]?.popLast() }) {
      if candidate.idleSince.withLock({ $0 }).duration(to: .now) < idleTimeout, candidate.isReusable {
        return (candidate, true)
      }
      candidate.close()
    }
    return (try SocketConnection.connect(to: endpoint, timeout: connectTimeout, trustedCertificates: trustedCertificates), false)
  }

  /// Takes back a connection whose response was read to the end.
  func recycle(_ connection: SocketConnection) {
    connection.idleSince.withLock { $0 = .now }
    let kept = idle.withLock { idle -> Bool in
      guard idle[connection.endpoint, default: []].count < maximumIdleConnectionsPerHost else { return false }
      idle[connection.endpoint, default: []].append(connection)
      return true
    }
    if !kept { connection.close() }
  }
}
