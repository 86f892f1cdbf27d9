import HTTP1Server

/// A small HTTP/1.1 server on POSIX sockets for the in-memory Firestore mock.
///
/// One accept thread plus one thread per connection; the handler runs synchronously on the
/// connection's thread and may block (a lock wait, a long-lived streaming body). Supported:
/// keep-alive (HTTP/1.1 default, `Connection: close` honoured, HTTP/1.0 only with
/// `keep-alive`), pipelined requests (answered in order), `Content-Length` and chunked
/// request bodies, `Expect: 100-continue`, percent-decoded paths and query parameters.
///
/// Limits: bodies up to 10 MiB (larger: 413 with a Firestore JSON error, then the connection
/// is closed); request heads up to 64 KiB; malformed input gets a 400 JSON error and the
/// connection is closed; a connection silent for 120 s is closed. Responses are sent with
/// `Content-Length`, or chunked for ``MockHTTPResponse/Body/streaming(_:)`` with every write
/// sent at once as its own chunk.
///
/// Faults from ``faults`` are applied around the handler (except to paths under `/mock/`,
/// the mock's admin endpoints, so that a catch-all rule cannot lock out its own removal),
/// and every request is recorded in ``requestLog``.
public final class MockHTTPServer: Sendable {
  /// Answers one request; runs on the connection's thread and may block.
  public typealias Handler = @Sendable (MockHTTPRequest) -> MockHTTPResponse

  /// A socket call that failed while starting the server.
  public typealias SocketError = HTTPSocketError

  /// The host the server was asked to listen on.
  public let host: String
  /// The bound port (the ephemeral one chosen by the system when started with port 0).
  public let port: Int
  /// The fault rules applied around the handler; change them at any time.
  public let faults: FaultInjector
  /// Every request received.
  public let requestLog: RequestLog
  private let runtime: MockHTTPServerRuntime

  private init(host: String, port: Int, faults: FaultInjector, requestLog: RequestLog, runtime: MockHTTPServerRuntime) {
    self.host = host
    self.port = port
    self.faults = faults
    self.requestLog = requestLog
    self.runtime = runtime
  }

  /// Binds and listens on `host:port` (port 0 picks a free port), then starts accepting
  /// connections. Returns once the socket is listening, so clients can connect at once.
  /// - Parameters:
  ///   - host: the IPv4 address to bind, `127.0.0.1` by default.
  ///   - port: the port; 0 picks a free one (read it from ``port``).
  ///   - faults: the fault rules to apply (shared, so a service can also change them).
  ///   - requestLog: where to record requests (shared, so a service can also read it).
  ///   - handler: answers each request, on the connection's thread.
  /// - Throws: ``SocketError`` when the address cannot be resolved or bound.
  public static func start(
    host: String = "127.0.0.1", port: Int = 0, faults: FaultInjector = FaultInjector(), requestLog: RequestLog = RequestLog(),
    handler: @escaping Handler
  ) throws -> MockHTTPServer {
    try start(
      host: host, port: port, faults: faults, requestLog: requestLog, configuration: MockHTTPServerConfiguration(), handler: handler)
  }

  /// ``start(host:port:faults:requestLog:handler:)`` with explicit limits (for tests).
  static func start(
    host: String = "127.0.0.1", port: Int = 0, faults: FaultInjector = FaultInjector(), requestLog: RequestLog = RequestLog(),
    configuration: MockHTTPServerConfiguration, handler: @escaping Handler
  ) throws -> MockHTTPServer {
    let log = requestLog
    let runtime = try MockHTTPServerRuntime(configuration: configuration, handler: handler, faults: faults, log: log)
    let listener: (fd: Int32, port: Int)
    do {
      listener = try HTTPSocket.makeListener(host: host, port: port, backlog: configuration.listenBacklog)
    } catch {
      runtime.beginStop()
      runtime.markAcceptFinished()
      throw error
    }
    runtime.startAccepting(listener: listener.fd)
    return MockHTTPServer(host: host, port: listener.port, faults: faults, requestLog: log, runtime: runtime)
  }

  /// Stops the server: closes the listening socket and every open connection (a client in
  /// the middle of a response sees it end early), releases stalled requests, and waits for
  /// the server's threads to finish (at most 10 s; a handler that never returns is left
  /// running). Safe to call more than once, from any thread, including from a handler
  /// (which does not wait for its own thread).
  ///
  /// - Returns: `true` when every thread finished, `false` when one was left running.
  @discardableResult
  public func stop() -> Bool {
    runtime.beginStop()
    return runtime.waitForThreads()
  }

  deinit {
    // Threads hold the runtime, not the server, so this runs once the caller lets go: the
    // threads are told to finish but not waited for.
    runtime.beginStop()
  }
}
