import FirestorePlatform
import FirestoreWire
import Foundation
import HTTP1Server

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A loopback TCP server whose every connection runs a script: for testing the transport
/// against replies no real server sends (cut heads, silent closes).
public final class RawHTTPServer: Sendable {
  /// One accepted connection, as the script sees it.
  public final class Connection {
    public let fd: Int32
    /// Requests are read as the mock server reads them, so pipelined bytes stay buffered.
    private var reader: HTTPRequestReader<HTTPSocketSource>

    init(fd: Int32) {
      self.fd = fd
      reader = HTTPRequestReader(source: HTTPSocketSource(fd: fd, wake: -1, timeoutMilliseconds: -1))
    }

    /// Reads one request and returns it as text: its head lines as sent and its body;
    /// `nil` when the client closed (or sent something that is not HTTP).
    public func readRequest() -> String? {
      guard let request = try? reader.readHeadAndLines(), let body = try? reader.readBody(reader.framing(of: request.head)) else {
        return nil
      }
      let text = request.lines.map { String(decoding: $0, as: UTF8.self) + "\r\n" }.joined() + "\r\n"
      return text + String(decoding: body, as: UTF8.self)
    }

    /// Writes `text` as it is.
    public func write(_ text: String) {
      _ = Array(text.utf8).withUnsafeBytes { POSIXSocket.sendAll(fd, $0) }
    }

    /// Writes `bytes`; `false` once the client is gone.
    @discardableResult
    public func write(bytes: [UInt8]) -> Bool {
      bytes.withUnsafeBytes { POSIXSocket.sendAll(fd, $0) }
    }

    /// Blocks until the client closes or resets the connection, discarding what it sends.
    public func waitUntilClosed() {
      var buffer = [UInt8](repeating: 0, count: 4096)
      while true {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        if poll(&entry, 1, -1) < 0 {
          if errno == EINTR { continue }
          return
        }
        let n = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
        if n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) { return }
      }
    }

    /// Whether a write to the connection `fd` would go through now: `false` once the
    /// client stopped taking bytes and the buffers between are full. Callable from any
    /// thread, while the script is blocked writing.
    public static func isWritable(_ fd: Int32) -> Bool {
      var entry = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
      return poll(&entry, 1, 0) > 0 && entry.revents & Int16(POLLOUT) != 0
    }

    /// Shrinks the socket's send buffer, so that a client that stops reading blocks the
    /// writer soon.
    public func limitSendBuffer(_ bytes: Int32) {
      var size = bytes
      _ = setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }
  }

  /// The loopback port it listens on.
  public let port: Int
  private let listener: Int32
  private final class Counter: Sendable {
    let value = Locked(0)
  }
  private let counter = Counter()
  /// How many connections were accepted.
  public var accepted: Int { counter.value.withLock { $0 } }

  /// Starts the server; `script` runs on a thread of its own for each connection, which is
  /// closed when it returns.
  public init(_ script: @escaping @Sendable (Connection, _ index: Int) -> Void) throws {
    let (fd, port) = try HTTPSocket.makeListener(host: "127.0.0.1", port: 0, backlog: 16)
    self.port = port
    listener = fd
    let counter = self.counter
    Thread.detachNewThread {
      while true {
        // The listener does not block: wait for a connection (or the shutdown) first.
        guard HTTPSocket.waitReadable(fd, wake: -1, timeoutMilliseconds: -1) == .readable else {
          close(fd)
          return
        }
        let client = accept(fd, nil, nil)
        if client < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) { continue }
        guard client >= 0 else {
          // Closed here, not in stop(): a descriptor closed under a blocked accept could be
          // handed to another test's socket, and this thread would then accept its clients.
          close(fd)
          return
        }
        let index = counter.value.withLock { count -> Int in
          count += 1
          return count
        }
        Thread.detachNewThread {
          script(Connection(fd: client), index)
          close(client)
        }
      }
    }
  }

  /// `http://127.0.0.1:<port><path>`.
  public func url(_ path: String = "/") -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

  /// Stops accepting (the accept thread then closes the socket).
  public func stop() {
    shutdown(listener, Int32(SHUT_RDWR))
  }
}
