import FirestoreWire
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A loopback TCP server whose every connection runs a script: for testing the transport
/// against replies no real server sends (cut heads, silent closes).
final class RawHTTPServer: Sendable {
  /// One accepted connection, as the script sees it.
  struct Connection {
    let fd: Int32

    /// Reads one request (head and `Content-Length` body); `nil` when the client closed.
    func readRequest() -> String? {
      var data: [UInt8] = []
      var byte: UInt8 = 0
      while !data.ends(with: Array("\r\n\r\n".utf8)) {
        guard recv(fd, &byte, 1, 0) == 1 else { return nil }
        data.append(byte)
      }
      let head = String(decoding: data, as: UTF8.self)
      let length =
        head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
        .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
      for _ in 0..<length {
        guard recv(fd, &byte, 1, 0) == 1 else { return nil }
        data.append(byte)
      }
      return String(decoding: data, as: UTF8.self)
    }

    /// Writes `text` as it is.
    func write(_ text: String) {
      _ = Array(text.utf8).withUnsafeBytes { POSIXSocket.sendAll(fd, $0) }
    }

    /// Writes `bytes`; `false` once the client is gone.
    @discardableResult
    func write(bytes: [UInt8]) -> Bool {
      bytes.withUnsafeBytes { POSIXSocket.sendAll(fd, $0) }
    }

    /// Whether the client still has the connection open (it has not closed or reset it).
    var isOpen: Bool {
      var byte: UInt8 = 0
      let n = recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
      return n > 0 || (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
    }

    /// Shrinks the socket's send buffer, so that a client that stops reading blocks the
    /// writer soon.
    func limitSendBuffer(_ bytes: Int32) {
      var size = bytes
      _ = setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }
  }

  let port: Int
  private let listener: Int32
  private final class Counter: Sendable {
    let value = Locked(0)
  }
  private let counter = Counter()
  /// How many connections were accepted.
  var accepted: Int { counter.value.withLock { $0 } }

  /// Starts the server; `script` runs on a thread of its own for each connection, which is
  /// closed when it returns.
  init(_ script: @escaping @Sendable (Connection, _ index: Int) -> Void) throws {
    let fd = socket(AF_INET, POSIXSocket.streamType, 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var one: Int32 = 1
    _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard bound == 0, listen(fd, 16) == 0 else { throw POSIXError(.EADDRINUSE) }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
    port = Int(UInt16(bigEndian: address.sin_port))
    listener = fd
    let counter = self.counter
    Thread.detachNewThread {
      while true {
        let client = accept(fd, nil, nil)
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
  func url(_ path: String = "/") -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

  /// Stops accepting (the accept thread then closes the socket).
  func stop() {
    shutdown(listener, Int32(SHUT_RDWR))
  }
}

extension Array where Element == UInt8 {
  fileprivate func ends(with suffix: [UInt8]) -> Bool { count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix }
}
