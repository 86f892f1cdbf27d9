#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Thin wrappers over the POSIX socket calls the mock server uses, hiding the Glibc and
/// Darwin differences.
enum HTTPSocket {
  #if canImport(Darwin)
    static let streamType = SOCK_STREAM
    /// Darwin has no MSG_NOSIGNAL; accepted sockets get SO_NOSIGPIPE instead.
    static let sendFlags: Int32 = 0
  #else
    static let streamType = Int32(SOCK_STREAM.rawValue)
    /// MSG_NOSIGNAL: a peer that went away gives EPIPE instead of killing the process.
    static let sendFlags = Int32(MSG_NOSIGNAL)
  #endif

  /// The result of waiting for input.
  enum Wait {
    case readable
    case woken
    case timedOut
  }

  /// Creates a listening socket bound to `host:port`, preferring IPv4 addresses when the
  /// host resolves to several. Returns the descriptor and the bound port.
  static func makeListener(host: String, port: Int, backlog: Int32) throws -> (fd: Int32, port: Int) {
    guard (0...65_535).contains(port) else {
      throw MockHTTPServer.SocketError(operation: "bind", code: EINVAL, message: "port \(port) is out of range")
    }
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    hints.ai_socktype = streamType
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
    var list: UnsafeMutablePointer<addrinfo>?
    let rc = getaddrinfo(host, String(port), &hints, &list)
    guard rc == 0, let list else {
      throw MockHTTPServer.SocketError(operation: "getaddrinfo(\(host))", code: rc, message: String(cString: gai_strerror(rc)))
    }
    defer { freeaddrinfo(list) }
    var candidates: [UnsafeMutablePointer<addrinfo>] = []
    var next: UnsafeMutablePointer<addrinfo>? = list
    while let current = next {
      candidates.append(current)
      next = current.pointee.ai_next
    }
    candidates = candidates.filter { $0.pointee.ai_family == AF_INET } + candidates.filter { $0.pointee.ai_family != AF_INET }
    var lastError = MockHTTPServer.SocketError(operation: "getaddrinfo(\(host))", code: 0, message: "no usable address")
    for candidate in candidates {
      let info = candidate.pointee
      let fd = socket(info.ai_family, info.ai_socktype, info.ai_protocol)
      guard fd >= 0 else {
        lastError = .fromErrno("socket")
        continue
      }
      var one: Int32 = 1
      _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
      guard bind(fd, info.ai_addr, info.ai_addrlen) == 0 else {
        lastError = .fromErrno("bind(\(host):\(port))")
        close(fd)
        continue
      }
      guard listen(fd, backlog) == 0 else {
        lastError = .fromErrno("listen")
        close(fd)
        continue
      }
      setCloseOnExec(fd)
      // Non-blocking so that a connection reset between poll and accept cannot block the
      // accept thread.
      _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
      return (fd, boundPort(fd) ?? port)
    }
    throw lastError
  }

  /// The local port a socket is bound to.
  static func boundPort(_ fd: Int32) -> Int? {
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
  static func configureAccepted(_ fd: Int32, sendTimeoutSeconds: Int) {
    setCloseOnExec(fd)
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
    var one: Int32 = 1
    _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    #if canImport(Darwin)
      _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
    #endif
    var timeout = timeval()
    timeout.tv_sec = numericCast(sendTimeoutSeconds)
    _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
  }

  /// Marks a descriptor close-on-exec.
  static func setCloseOnExec(_ fd: Int32) {
    _ = fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC)
  }

  /// Sends every byte; `false` when the connection failed (peer gone, send timeout, shut down).
  static func sendAll(_ fd: Int32, _ bytes: ArraySlice<UInt8>) -> Bool {
    bytes.withUnsafeBytes { raw in
      guard let base = raw.baseAddress else { return true }
      var offset = 0
      while offset < raw.count {
        let sent = send(fd, base + offset, raw.count - offset, sendFlags)
        if sent > 0 {
          offset += sent
        } else if sent < 0 && errno == EINTR {
          continue
        } else {
          return false
        }
      }
      return true
    }
  }

  /// Waits until `fd` is readable (data or EOF), `wake` is readable (the server is
  /// stopping) or `timeoutMilliseconds` pass (negative = no limit).
  static func waitReadable(_ fd: Int32, wake: Int32, timeoutMilliseconds: Int) -> Wait {
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
  static func sleep(milliseconds: Int, wake: Int32) -> Bool {
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
  static func waitForStopOrHangup(_ fd: Int32, wake: Int32, timeoutMilliseconds: Int) {
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
