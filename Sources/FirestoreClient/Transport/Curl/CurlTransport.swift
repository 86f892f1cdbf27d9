#if canImport(CCurl)
  import CCurl
  import FirestorePlatform
  import FirestoreWire
  import Foundation

  /// The default ``Transport``: libcurl's multi interface on one event-loop thread.
  ///
  /// - HTTP/2 over TLS when the server offers it (ALPN), with many requests multiplexed on
  ///   one connection; HTTP/1.1 otherwise, and always for cleartext `http` (the emulator).
  ///   Connections are kept and reused.
  /// - Responses compressed with any encoding the library decodes (gzip, deflate, brotli,
  ///   zstd) are asked for and decoded.
  /// - Proxies come from ``proxy`` or, when it is `nil`, from the standard environment
  ///   variables (`https_proxy`/`HTTPS_PROXY`, `http_proxy`, `ALL_PROXY`, `NO_PROXY`).
  /// - The server's certificate and name are always verified, against the system's roots or
  ///   the PEM bundle in ``trustedCertificates``.
  /// - A response body streams through a bounded buffer: when the reader falls behind, the
  ///   transfer pauses (see ``HTTPBody``).
  /// - Cancelling the calling task aborts the transfer at once; a request's
  ///   ``HTTPRequest/deadline`` is kept by the event loop, with no task or timer of its own.
  ///
  /// A request that is not ``HTTPRequest/isIdempotent`` is never sent twice: libcurl would
  /// resend a request whose reused connection died before any reply, but the transport
  /// refuses to rewind a body that went out whole, so the caller gets `unavailable` instead.
  ///
  /// The thread sleeps in `curl_multi_poll` between events: an idle listener costs no CPU.
  ///
  /// ```swift
  /// let settings = FirestoreSettings()
  /// settings.transport = CurlTransport(trustedCertificates: "/etc/my-ca.pem", proxy: "http://proxy:3128")
  /// ```
  public final class CurlTransport: Transport {
    /// The transport shared by every ``Firestore`` instance that has no transport of its own.
    public static let shared = CurlTransport()

    /// What the transport has carried since it was made.
    public struct Statistics: Sendable, Equatable {
      /// Requests that ran to an end (a response or an error).
      public var requests = 0
      /// Connections opened (a request on a reused or multiplexed connection opens none).
      public var connectionsOpened = 0
      /// Response body bytes as they came over the wire, before decompression.
      public var bytesReceived = 0
      /// Request body bytes sent.
      public var bytesSent = 0
      /// Requests answered over HTTP/2.
      public var http2Requests = 0
    }

    /// The PEM bundle of root certificates trusted for `https`, or `nil` for the system's.
    public let trustedCertificates: String?
    /// The proxy (`http://host:port`, `https://host:port`, `socks5://…`), or `nil` for the
    /// one the environment names, if any.
    public let proxy: String?
    /// How long opening a connection (TCP, proxy and TLS) may take.
    public let connectTimeout: Duration

    let loop: CurlEventLoop
    /// Handles of finished requests, for the next ones.
    let handles = CurlHandlePool()
    /// The targets and header lists of recent requests, for the next ones.
    let prepared = CurlPreparedParts()
    /// The user names and passwords of the proxies requests may go through (``proxy``
    /// and the environment's), which no error may show.
    let proxyCredentials: [String]

    /// Creates a transport with its own connections and event loop.
    /// - Parameters:
    ///   - trustedCertificates: the path of a PEM bundle of root certificates to trust for
    ///     `https` instead of the system's (a private CA); verification itself is always on.
    ///   - proxy: a proxy URL for every request, or `nil` for the environment's.
    ///   - connectTimeout: how long opening a connection may take.
    public init(trustedCertificates: String? = nil, proxy: String? = nil, connectTimeout: Duration = .seconds(10)) {
      self.trustedCertificates = trustedCertificates
      self.proxy = proxy
      self.connectTimeout = connectTimeout
      loop = CurlEventLoop()
      let environment = ProcessInfo.processInfo.environment
      let proxies = [proxy] + ["https_proxy", "HTTPS_PROXY", "http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY"].map { environment[$0] }
      proxyCredentials = proxies.compactMap { $0 }.flatMap(DisplayText.credentials(of:))
    }

    deinit {
      loop.shutDown()
    }

    /// What the transport has carried so far.
    public var statistics: Statistics { loop.statistics.withLock { $0 } }

    /// Closes the connections the transport keeps for reuse: at once when no request runs,
    /// else as soon as none does (a transport shared with other instances may still be in
    /// use). Returns when the event loop took the request.
    func closeIdleConnections() async {
      await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        loop.post(.closeIdleConnections { done.resume() })
      }
    }

    /// The event loop keeps ``HTTPRequest/deadline``.
    public var enforcesDeadlines: Bool { true }

    /// Sends `request` and returns once the status and headers are in; the body streams.
    ///
    /// - Throws: `unavailable` when the host cannot be reached or the connection fails or
    ///   the reply is not valid HTTP (the message says which), `cancelled` when the calling
    ///   task is cancelled, `deadlineExceeded` past the request's deadline,
    ///   `invalidArgument` for a URL that is not `http` or `https` or a header that would
    ///   break the request's framing.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
      let exchange = try CurlExchange(request: request, transport: self)
      let response = try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { head in
          exchange.start(head)
        }
      } onCancel: {
        exchange.abort(FirestoreError(.cancelled, "the request was cancelled"))
      }
      exchange.headTaken()
      return response
    }
  }
#endif
