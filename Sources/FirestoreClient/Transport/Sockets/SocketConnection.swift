import FirestoreWire

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// One keep-alive TCP connection of ``SocketTransport``, carrying one request at a time
/// with blocking calls on the thread that runs the exchange.
///
/// ``shutDown()`` may come from any thread (a cancelled caller): it wakes a blocked
/// `recv`. The descriptor is closed once, under the same lock, so a late shutdown can never
/// hit a descriptor number the system has handed out again.
final class SocketConnection: Sendable {
  /// Where a connection goes: host, port and whether it speaks TLS, as the pool keys them.
  struct Endpoint: Hashable, Sendable, CustomStringConvertible {
    var host: String
    var port: Int
    var usesTLS = false
    var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
  }

  /// A failed socket call, with the reason as text.
  struct Failure: Error {
    var message: String
  }

  let endpoint: Endpoint
  private let fd: Int32
  /// The TLS session over `fd`, for `https` endpoints.
  private let tls: TLSSession?
  /// `true` once closed; guards every use of `fd` from other threads.
  private let closed = Locked(false)
  /// When the connection last went back to the pool.
  let idleSince = Locked(ContinuousClock.now)
  /// How many requests the connection carried and the last one, for errors to tell what a
  /// failed reused connection had been doing.
  let history = Locked((count: 0, method: "", path: ""))

  private init(endpoint: Endpoint, fd: Int32, tls: TLSSession?) {
    self.endpoint = endpoint
    self.fd = fd
    self.tls = tls
  }

  deinit { close() }

  /// Opens a connection, trying each address of the host in turn (IPv4 first), and for a
  /// TLS endpoint runs the handshake (within the same timeout), verifying the server's
  /// certificate against `trustedCertificates` (a PEM bundle) or the system's roots.
  static func connect(to endpoint: Endpoint, timeout: Duration, trustedCertificates: String? = nil) throws -> SocketConnection {
    var lastError = "no usable address"
    let fd: Int32?
    do {
      fd = try POSIXSocket.withAddresses(host: endpoint.host, port: endpoint.port) { info -> Int32? in
        let fd = socket(info.ai_family, info.ai_socktype, info.ai_protocol)
        guard fd >= 0 else {
          lastError = POSIXSocket.errnoText
          return nil
        }
        POSIXSocket.setCloseOnExec(fd)
        if let problem = connect(fd, info.ai_addr, info.ai_addrlen, timeout: timeout) {
          lastError = problem
          _ = closeDescriptor(fd)
          return nil
        }
        POSIXSocket.configure(fd)
        return fd
      }
    } catch {
      throw Failure(message: "cannot resolve \(endpoint.host): \(error.message)")
    }
    guard let fd else { throw Failure(message: "cannot connect to \(endpoint): \(lastError)") }
    guard endpoint.usesTLS else { return SocketConnection(endpoint: endpoint, fd: fd, tls: nil) }
    // The handshake blocks: bound it by the connect timeout, then lift the bound (a listen's
    // reads wait as long as the caller lets them).
    setTimeouts(fd, min(timeout, .seconds(3600)))
    do {
      let session = try TLSSession(fd: fd, host: endpoint.host, trustedCertificates: trustedCertificates)
      setTimeouts(fd, .zero)
      return SocketConnection(endpoint: endpoint, fd: fd, tls: session)
    } catch {
      _ = closeDescriptor(fd)
      throw error
    }
  }

  /// Sets the receive and send timeouts of `fd`; zero means none.
  private static func setTimeouts(_ fd: Int32, _ limit: Duration) {
    var value = timeval()
    value.tv_sec = numericCast(limit.components.seconds)
    value.tv_usec = numericCast(limit.components.attoseconds / 1_000_000_000_000)
    _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
    _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
  }

  /// Connects `fd` within `timeout`; the reason on failure. Leaves `fd` blocking.
  private static func connect(_ fd: Int32, _ address: UnsafeMutablePointer<sockaddr>?, _ length: socklen_t, timeout: Duration) -> String? {
    let flags = fcntl(fd, F_GETFL)
    _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
    defer { _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
    if connectSocket(fd, address, length) == 0 { return nil }
    guard errno == EINPROGRESS || errno == EINTR else { return POSIXSocket.errnoText }
    let deadline = ContinuousClock.now + timeout
    while true {
      var pfd = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
      let left = ContinuousClock.now.duration(to: deadline)
      guard left > .zero else { return "connect timed out after \(timeout)" }
      // At most a minute per poll (the loop goes on): no overflow for any timeout.
      let slice = min(left, .seconds(60))
      let ms = Int32(slice.components.seconds * 1000 + slice.components.attoseconds / 1_000_000_000_000_000 + 1)
      let rc = poll(&pfd, 1, ms)
      if rc < 0 && errno == EINTR { continue }
      if rc < 0 { return POSIXSocket.errnoText }
      if rc == 0 { continue }
      var error: Int32 = 0
      var size = socklen_t(MemoryLayout<Int32>.size)
      _ = getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &size)
      return error == 0 ? nil : String(cString: strerror(error))
    }
  }

  /// Sends all of `bytes`.
  func send(_ bytes: [UInt8]) throws {
    if let tls { return try tls.send(bytes) }
    let ok = bytes.withUnsafeBytes { POSIXSocket.sendAll(fd, $0) }
    guard ok else { throw Failure(message: POSIXSocket.errnoText) }
  }

  /// Reads what is there (blocking until something is); `0` at the end of the stream.
  func receive(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
    if let tls { return try tls.receive(into: buffer) }
    while true {
      let n = recv(fd, buffer.baseAddress, buffer.count, 0)
      if n >= 0 { return n }
      if errno == EINTR { continue }
      throw Failure(message: POSIXSocket.errnoText)
    }
  }

  /// Whether an idle connection can carry a request: the peer has neither closed it nor
  /// sent anything unasked (either makes it readable).
  var isReusable: Bool {
    closed.withLock { closed in
      guard !closed, tls?.hasBufferedData != true else { return false }
      var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      return poll(&pfd, 1, 0) == 0
    }
  }

  /// Ends both directions now, waking a thread blocked in ``receive(into:)``.
  func shutDown() {
    closed.withLock { closed in
      if !closed { _ = shutdownSocket(fd) }
    }
  }

  /// Closes the descriptor (once).
  func close() {
    closed.withLock { closed in
      guard !closed else { return }
      closed = true
      tls?.free()
      _ = closeDescriptor(fd)
    }
  }
}

// The system calls by other names: inside `SocketConnection`, `close`, `connect` and
// `shutdown` would name its own methods.
private func closeDescriptor(_ fd: Int32) -> Int32 { close(fd) }
private func connectSocket(_ fd: Int32, _ address: UnsafeMutablePointer<sockaddr>?, _ length: socklen_t) -> Int32 {
  connect(fd, address, length)
}
private func shutdownSocket(_ fd: Int32) -> Int32 { shutdown(fd, Int32(SHUT_RDWR)) }
