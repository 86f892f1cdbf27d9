#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The POSIX socket calls shared by the client's socket transport and the mock server,
/// hiding the Glibc and Darwin differences. Package-internal: not part of the public API.
package enum POSIXSocket {
  #if canImport(Darwin)
    package static let streamType = SOCK_STREAM
    /// Darwin has no MSG_NOSIGNAL; sockets get SO_NOSIGPIPE instead (see ``configure(_:)``).
    package static let sendFlags: Int32 = 0
  #else
    package static let streamType = Int32(SOCK_STREAM.rawValue)
    /// MSG_NOSIGNAL: a peer that went away gives EPIPE instead of killing the process.
    package static let sendFlags = Int32(MSG_NOSIGNAL)
  #endif

  /// The text of the current `errno`.
  package static var errnoText: String { String(cString: strerror(errno)) }

  /// The addresses `host:port` resolves to for a TCP socket, IPv4 first (loopback names
  /// such as `localhost` often resolve to `::1` first while servers listen on IPv4 only).
  /// `body` is called with each in turn until it returns a value.
  /// - Throws: ``ResolveError`` when the name does not resolve.
  package static func withAddresses<T>(
    host: String, port: Int, passive: Bool = false, _ body: (addrinfo) -> T?
  ) throws(ResolveError) -> T? {
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    hints.ai_socktype = streamType
    hints.ai_flags = (passive ? AI_PASSIVE : 0) | AI_NUMERICSERV
    var list: UnsafeMutablePointer<addrinfo>?
    let rc = getaddrinfo(host, String(port), &hints, &list)
    guard rc == 0, let list else { throw ResolveError(code: rc, message: String(cString: gai_strerror(rc))) }
    defer { freeaddrinfo(list) }
    var candidates: [addrinfo] = []
    var next: UnsafeMutablePointer<addrinfo>? = list
    while let current = next {
      candidates.append(current.pointee)
      next = current.pointee.ai_next
    }
    for candidate in candidates.filter({ $0.ai_family == AF_INET }) + candidates.filter({ $0.ai_family != AF_INET }) {
      if let result = body(candidate) { return result }
    }
    return nil
  }

  /// A host name that did not resolve.
  package struct ResolveError: Error {
    /// The `getaddrinfo` result.
    package var code: Int32
    /// `gai_strerror`'s text.
    package var message: String
  }

  /// Marks a descriptor close-on-exec, so child processes do not inherit connections.
  package static func setCloseOnExec(_ fd: Int32) {
    _ = fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC)
  }

  /// Turns off Nagle's algorithm (small writes leave at once) and, on Darwin, SIGPIPE.
  package static func configure(_ fd: Int32) {
    var one: Int32 = 1
    _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    #if canImport(Darwin)
      _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
    #endif
  }

  /// Sends every byte; `false` when the connection failed (peer gone, send timeout, shut
  /// down), with `errno` telling why.
  package static func sendAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
    guard let base = bytes.baseAddress else { return true }
    var offset = 0
    while offset < bytes.count {
      let sent = send(fd, base + offset, bytes.count - offset, sendFlags)
      if sent > 0 {
        offset += sent
      } else if sent < 0 && errno == EINTR {
        continue
      } else {
        if sent == 0 { errno = EPIPE }
        return false
      }
    }
    return true
  }
}
