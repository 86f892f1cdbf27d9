import FirestoreWire
import Foundation

/// One request and its response over a ``SocketTransport`` connection, run on a thread of
/// its own: connect (or reuse), send, then read and parse until the response is complete,
/// feeding the body to the caller's stream as it arrives.
final class SocketExchange: Sendable {
  private struct State {
    var connection: SocketConnection?
    var cancelled = false
    var head: CheckedContinuation<HTTPResponse, any Error>?
  }

  private let transport: SocketTransport
  private let endpoint: SocketConnection.Endpoint
  private let method: String
  /// The request may go again on a fresh connection (see ``HTTPRequest/isIdempotent``).
  private let isIdempotent: Bool
  private let path: String
  private let requestBytes: [UInt8]
  /// The request asked for `Connection: close`: the connection is not pooled afterwards.
  private let closesConnection: Bool
  private let state = Locked(State())

  /// Prepares the bytes of `request`.
  /// - Throws: `invalidArgument` for a URL without a host or a header that contains a
  ///   line break (it would let a value inject headers of its own).
  init(request: HTTPRequest, transport: SocketTransport) throws {
    self.transport = transport
    method = request.method
    isIdempotent = request.isIdempotent
    guard let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false), let host = components.host, !host.isEmpty
    else {
      throw FirestoreError(.invalidArgument, "the URL \(request.url.absoluteString) has no host")
    }
    let usesTLS = components.scheme?.lowercased() == "https"
    let defaultPort = usesTLS ? 443 : 80
    endpoint = SocketConnection.Endpoint(host: host, port: components.port ?? defaultPort, usesTLS: usesTLS)
    let encodedPath = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
    path = encodedPath + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
    guard method.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }), !method.isEmpty, !path.utf8.contains(where: { $0 <= 0x20 }) else {
      throw FirestoreError(.invalidArgument, "cannot send \(method) \(path): invalid request line")
    }
    var head =
      "\(method) \(path) HTTP/1.1\r\nHost: \(endpoint.port == defaultPort ? (host.contains(":") ? "[\(host)]" : host) : endpoint.description)\r\n"
    var closesConnection = false
    for (name, value) in request.headers.sorted(by: { $0.key < $1.key }) {
      let lower = name.lowercased()
      if lower == "connection" {
        // Only `close` passes: the caller does not want the connection reused.
        closesConnection = value.lowercased() == "close"
        if closesConnection { head += "Connection: close\r\n" }
        continue
      }
      if lower == "host" || lower == "content-length" || lower == "transfer-encoding" { continue }
      guard !name.isEmpty, !name.utf8.contains(where: { $0 <= 0x20 || $0 == UInt8(ascii: ":") || $0 >= 0x7F }),
        !value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 })
      else {
        throw FirestoreError(.invalidArgument, "header \"\(name.prefix(40))\" has a name or value that would break the request")
      }
      head += "\(name): \(value)\r\n"
    }
    if let body = request.body {
      head += "Content-Length: \(body.count)\r\n"
    } else if method == "POST" || method == "PUT" || method == "PATCH" {
      head += "Content-Length: 0\r\n"
    }
    head += "\r\n"
    self.closesConnection = closesConnection
    var bytes = Array(head.utf8)
    if let body = request.body { bytes.append(contentsOf: body) }
    requestBytes = bytes
  }

  /// Starts the exchange on a new thread; `head` gets the response or the failure.
  func start(_ head: CheckedContinuation<HTTPResponse, any Error>) {
    let cancelled = state.withLock { state -> Bool in
      state.head = head
      return state.cancelled
    }
    if cancelled {
      resumeHead(.failure(FirestoreError(.cancelled, "the request was cancelled")))
      return
    }
    Thread.detachNewThread { [self] in run() }
  }

  /// Cancels the exchange: the connection is shut down and not reused.
  func cancel() {
    let connection = state.withLock { state -> SocketConnection? in
      state.cancelled = true
      return state.connection
    }
    connection?.shutDown()
    resumeHead(.failure(FirestoreError(.cancelled, "the request was cancelled")))
  }

  private func run() {
    var connection: SocketConnection?
    var body: AsyncThrowingStream<Data, any Error>.Continuation?
    var sent = false
    // Whether any attempt sent the whole request: then the server may have acted on it.
    var everSent = false
    do {
      var reused: Bool
      (connection, reused) = try open()
      var parser = HTTPResponseParser(requestMethod: method)
      var buffer = [UInt8](repeating: 0, count: 64 << 10)
      var received = false
      while !parser.isComplete, let current = connection {
        let n: Int
        do {
          if !sent {
            try current.send(requestBytes)
            sent = true
            everSent = true
          }
          n = try buffer.withUnsafeMutableBytes { try current.receive(into: $0) }
        } catch is SocketConnection.Failure where reused && !received && !isCancelled && (!sent || isIdempotent) {
          // A pooled connection the server closed (idle timeout, or a close after its last
          // reply) just as the request went out. If the request did not go out whole, the
          // server cannot have acted on it; if it did, only an idempotent one may go again
          // (RFC 9112 §9.3.1): the server may have applied it before closing.
          try reopen(&connection, &reused, &sent)
          continue
        }
        if n == 0, !received, reused, isIdempotent, !isCancelled {
          try reopen(&connection, &reused, &sent)
          continue
        }
        received = received || n > 0
        let events =
          n == 0 ? try parser.finish() : try buffer.withUnsafeBytes { try parser.append(UnsafeRawBufferPointer(rebasing: $0[..<n])) }
        for event in events {
          switch event {
          case .head(let status, let headers):
            let (stream, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
            continuation.onTermination = { [weak self] termination in
              if case .cancelled = termination { self?.cancel() }
            }
            body = continuation
            resumeHead(.success(HTTPResponse(status: status, headers: headers, body: stream)))
          case .body(let data):
            body?.yield(data)
          case .end:
            // Back to the pool before the caller learns the body ended, so that its next
            // request finds the connection free.
            if let done = connection, release(done), parser.keepAlive, !closesConnection {
              transport.recycle(done)
            } else {
              connection?.close()
            }
            connection = nil
            body?.finish()
          }
        }
      }
    } catch {
      connection?.close()
      let mapped = map(error, sent: everSent)
      if !resumeHead(.failure(mapped)) { body?.finish(throwing: mapped) }
    }
  }

  /// Whether ``cancel()`` was called.
  private var isCancelled: Bool { state.withLock { $0.cancelled } }

  /// Replaces a reused connection that failed before any reply with a fresh one.
  private func reopen(_ connection: inout SocketConnection?, _ reused: inout Bool, _ sent: inout Bool) throws {
    connection?.close()
    connection = nil
    (connection, reused) = try open(fresh: true)
    sent = false
  }

  /// For a reused connection: the requests it carried before, the last one, its idle time.
  private let reuse = Locked<(count: Int, method: String, path: String, idle: Duration)?>(nil)

  /// ``reuse`` as text for an error message; empty for a fresh connection.
  private var reuseNote: String {
    guard let reuse = reuse.withLock({ $0 }) else { return "" }
    let last = "\(reuse.method) \(reuse.path.prefix { $0 != "?" })"
    let idle = reuse.idle.formatted(.units(allowed: [.milliseconds]))
    return " (on a connection reused after \(reuse.count) requests, the last \(last), idle \(idle))"
  }

  /// A connection for this exchange (a pooled one unless `fresh`), registered so that
  /// ``cancel()`` can shut it down.
  private func open(fresh: Bool = false) throws -> (SocketConnection, Bool) {
    let (connection, reused) =
      fresh
      ? (
        try SocketConnection.connect(to: endpoint, timeout: transport.connectTimeout, trustedCertificates: transport.trustedCertificates),
        false
      ) : try transport.connection(to: endpoint)
    let cancelled = state.withLock { state -> Bool in
      state.connection = connection
      return state.cancelled
    }
    guard !cancelled else {
      connection.close()
      throw FirestoreError(.cancelled, "the request was cancelled")
    }
    // Only recorded here; the text is built if the exchange fails (not on every request).
    let idle = connection.idleSince.withLock { $0 }.duration(to: .now)
    let before = connection.history.withLock { history in
      defer { history = (history.count + 1, method, path) }
      return history
    }
    reuse.withLock { $0 = reused ? (before.count, before.method, before.path, idle) : nil }
    return (connection, reused)
  }

  /// Forgets the connection; `false` when the exchange was cancelled meanwhile.
  private func release(_ connection: SocketConnection) -> Bool {
    state.withLock { state in
      state.connection = nil
      return !state.cancelled
    }
  }

  /// Resumes the caller waiting for the head, once; `false` when it was resumed before.
  @discardableResult
  private func resumeHead(_ result: Result<HTTPResponse, any Error>) -> Bool {
    guard
      let head = state.withLock({ state -> CheckedContinuation<HTTPResponse, any Error>? in
        defer { state.head = nil }
        return state.head
      })
    else { return false }
    head.resume(with: result)
    return true
  }

  /// The ``FirestoreError`` for a failure of this exchange.
  private func map(_ error: any Error, sent: Bool) -> FirestoreError {
    var mapped: FirestoreError
    switch error {
    case let error as FirestoreError:
      mapped = error
    case let error as HTTPResponseParser.ParseError where error.connectionClosed:
      mapped = FirestoreError(.unavailable, "\(endpoint): \(error.description)" + reuseNote)
    case let error as HTTPResponseParser.ParseError:
      mapped = FirestoreError(.unavailable, "malformed HTTP response from \(endpoint): \(error.description)" + reuseNote)
    case let error as SocketConnection.Failure:
      let cancelled = state.withLock { $0.cancelled }
      if cancelled {
        mapped = FirestoreError(.cancelled, "the request was cancelled")
      } else if sent {
        mapped = FirestoreError(.unavailable, "connection to \(endpoint) failed: \(error.message)" + reuseNote)
      } else {
        mapped = FirestoreError(.unavailable, error.message)
        // Nothing reached the server, or not all of the request did: it cannot have acted.
        mapped.requestNotSent = true
      }
    default:
      mapped = FirestoreError(.unavailable, "network error: \(error)")
    }
    mapped.requestMethod = mapped.requestMethod ?? method
    mapped.requestPath = mapped.requestPath ?? String(path.prefix { $0 != "?" })
    return mapped
  }
}
