import FirestorePlatform

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Thin wrappers over the POSIX socket calls the mock server uses, hiding the Glibc and
/// Darwin differences.
package enum HTTPSocket {
  /// The result of waiting for input.
  package enum Wait {
    case readable
    case woken
    case timedOut
  }

  /// Creates a listening socket bound to `host:port`, preferring IPv4 addresses when the
  /// host resolves to several. Returns the descriptor and the bound port.
  package static func makeListener(host: String, port: Int, backlog: Int32) throws -> (fd: Int32, port: Int) {
    guard (0...65_535).contains(port) else {
      throw HTTPSocketError(operation: "bind", code: EINVAL, message: "port \(port) is out of range")
    }
    var lastError = HTTPSocketError(operation: "getaddrinfo(\(host))", code: 0, message: "no usable address")
    let bound: (fd: Int32, port: Int)?
    do {
      bound = try POSIXSocket.withAddresses(host: host, port: port, passive: true) { info in
        let fd = socket(info.ai_family, info.ai_socktype, info.ai_protocol)
        guard fd >= 0 else {
          lastError = .fromErrno("socket")
          return nil
        }
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        guard bind(fd, info.ai_addr, info.ai_addrlen) == 0 else {
          lastError = .fromErrno("bind(\(host):\(port))")
          close(fd)
          return nil
        }
        guard listen(fd, backlog) == 0 else {
          lastError = .fromErrno("listen")
          close(fd)
          return nil
        }
        POSIXSocket.setCloseOnExec(fd)
        // Non-blocking so that a connection reset between poll and accept cannot block the
        // accept thread.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        return (fd, boundPort(fd) ?? port)
      }
    } catch {
      throw HTTPSocketError(operation: "getaddrinfo(\(host))", code: error.code, message: error.message)
    }
    guard let bound else { throw lastError }
    return bound
  }

  /// The local port a socket is bound to.
  package static func boundPort(_ fd: Int32) -> Int? {
    var storage = sockaddr_storage()
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    let rc = withUnsafeMutablePointer(to: &storage) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    guard rc == 0 else { return nil }
    switch Int32(storage.ss_family) {
    case AF_INET:
      return withUnsafePointer(to: &storage) {
        $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin_port)) }
      }
    case AF_INET6:
      return withUnsafePointer(to: &storage) {
        $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin6_port)) }
      }
    default:
      return nil
    }
  }

  /// Prepares an accepted connection: blocking mode, no Nagle delay (streamed chunks must
  /// leave at once), a send timeout so a client that stops reading cannot pin a thread
  /// forever, and no SIGPIPE.
  package static func configureAccepted(_ fd: Int32, sendTimeoutSeconds: Int) {
    POSIXSocket.setCloseOnExec(fd)
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
    POSIXSocket.configure(fd)
    var timeout = timeval()
    timeout.tv_sec = numericCast(sendTimeoutSeconds)
    _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
  }

  /// Sends every byte; `false` when the connection failed (peer gone, send timeout, shut down).
  package static func sendAll(_ fd: Int32, _ bytes: ArraySlice<UInt8>) -> Bool {
    bytes.withUnsafeBytes { POSIXSocket.sendAll(fd, $0) }
  }

  /// Waits until `fd` is readable (data or EOF), `wake` is readable (the server is
  /// stopping) or `timeoutMilliseconds` pass (negative = no limit).
  package static func waitReadable(_ fd: Int32, wake: Int32, timeoutMilliseconds: Int) -> Wait {
    let deadline = timeoutMilliseconds >= 0 ? ContinuousClock.now + .milliseconds(timeoutMilliseconds) : nil
    while true {
      var fds = [pollfd(fd: wake, events: Int16(POLLIN), revents: 0), pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
      let rc = poll(&fds, 2, remainingMilliseconds(until: deadline))
      if rc < 0 {
        if errno == EINTR { continue }
        return .woken  // poll itself failed: treat like a stop rather than spin
      }
      if fds[0].revents != 0 { return .woken }
      if fds[1].revents != 0 { return .readable }
      if let deadline, ContinuousClock.now >= deadline { return .timedOut }
    }
  }

  /// Sleeps `milliseconds`; `false` when `wake` became readable first.
  package static func sleep(milliseconds: Int, wake: Int32) -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(milliseconds)
    while true {
      var fds = [pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
      let rc = poll(&fds, 1, remainingMilliseconds(until: deadline))
      if rc < 0 && errno != EINTR { return true }
      if rc > 0 { return false }
      if ContinuousClock.now >= deadline { return true }
    }
  }

  /// Waits until `wake` becomes readable, the peer of `fd` hangs up, or the time is up.
  package static func waitForStopOrHangup(_ fd: Int32, wake: Int32, timeoutMilliseconds: Int) {
    let deadline = ContinuousClock.now + .milliseconds(timeoutMilliseconds)
    var watchPeer = true
    while ContinuousClock.now < deadline {
      var fds = [pollfd(fd: wake, events: Int16(POLLIN), revents: 0), pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
      let rc = poll(&fds, watchPeer ? 2 : 1, remainingMilliseconds(until: deadline))
      if rc < 0 {
        if errno == EINTR { continue }
        return
      }
      if fds[0].revents != 0 { return }
      if watchPeer && fds[1].revents != 0 {
        var byte: UInt8 = 0
        let peeked = recv(fd, &byte, 1, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT))
        if peeked == 0 || (peeked < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) { return }
        // Pipelined bytes are waiting: they say nothing about a hang-up, so stop watching.
        if peeked > 0 { watchPeer = false }
      }
    }
  }

  /// Milliseconds left until `deadline` for poll (`-1` = no deadline), capped to Int32.
  private static func remainingMilliseconds(until deadline: ContinuousClock.Instant?) -> Int32 {
    guard let deadline else { return -1 }
    let left = ContinuousClock.now.duration(to: deadline)
    if left <= .zero { return 0 }
    let (seconds, attoseconds) = left.components
    let ms = seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1
    return Int32(clamping: ms)
  }
}
