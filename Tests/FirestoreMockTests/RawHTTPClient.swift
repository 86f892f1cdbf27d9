import FirestoreTestSupport
import HTTP1Server

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// An HTTP/1.1 client over a raw TCP socket, for tests that must send exact bytes
/// (malformed ones included) and read responses piece by piece (single chunks, up to EOF).
/// Every read gives up after `timeoutSeconds`, so a broken server fails a test instead of
/// hanging it. The default only catches a hang: a test waits for what the server sends or
/// closes, and on a loaded machine that can take seconds.
///
/// The socket calls block, so each call runs them through ``Blocking/run(_:)`` and awaits
/// them: a test blocked on a read must not hold one of the few threads that run every
/// test's tasks.
final class RawHTTPClient {
  /// The read and send timeout unless a test asks for another.
  static let defaultTimeoutSeconds = 30

  /// A response as read from the wire.
  struct Response {
    /// The status code.
    var status: Int
    /// Header fields in order, names lower-cased.
    var headers: [(name: String, value: String)]
    /// The body (de-chunked).
    var body: [UInt8]

    /// The first value of a header.
    func header(_ name: String) -> String? { headers.first { $0.name == name.lowercased() }?.value }

    /// The body as UTF-8 text.
    var text: String { String(decoding: body, as: UTF8.self) }
  }

  /// Why a client call failed.
  enum ClientError: Error, Equatable {
    case connectFailed(Int32)
    case sendFailed(Int32)
    case timedOut
    /// The server closed the connection before the expected bytes arrived.
    case closed
    case malformed(String)
  }

  private let connection: Connection
  /// When the connection was made, just before `init` sent its `request` (if any).
  let connected: ContinuousClock.Instant

  /// Connects to `127.0.0.1:port` and, in the same step, sends `request` (when given): for a
  /// server whose idle timeout is shorter than a test may take to get to its next call.
  init(port: Int, timeoutSeconds: Int = RawHTTPClient.defaultTimeoutSeconds, sending request: String? = nil) async throws {
    (connection, connected) = try await Blocking.run {
      let connection = try Connection(port: port, timeoutSeconds: timeoutSeconds)
      let connected = ContinuousClock.now
      if let request { try connection.send(Array(request.utf8)) }
      return (connection, connected)
    }
  }

  /// Runs `call` on the connection on a thread of its own and returns what it returns.
  private func blocking<T: Sendable>(_ call: @escaping @Sendable (Connection) throws -> T) async throws -> T {
    let connection = self.connection
    return try await Blocking.run { try call(connection) }
  }

  /// Sends text as UTF-8.
  func send(_ text: String) async throws { try await send(Array(text.utf8)) }

  /// Sends bytes.
  func send(_ bytes: [UInt8]) async throws { try await blocking { try $0.send(bytes) } }

  /// Half-closes the sending side.
  func shutdownWrite() { connection.shutdownWrite() }

  /// Reads one response head (a `100 Continue` counts as a response).
  func readHead() async throws -> Response { try await blocking { try $0.readHead() } }

  /// Reads one whole response: by Content-Length, chunked, or up to EOF.
  func readResponse(head isHEAD: Bool = false) async throws -> Response {
    try await blocking { try $0.readResponse(head: isHEAD) }
  }

  /// Reads one chunk of a chunked body; `nil` for the terminating zero-length chunk (its
  /// trailers are consumed too).
  func readChunk() async throws -> [UInt8]? { try await blocking { try $0.readChunk() } }

  /// Reads everything until the server closes the connection (a reset counts as a close).
  func readToEOF() async throws -> [UInt8] { try await blocking { try $0.readToEOF() } }

  /// Whether the server has closed the connection, waiting up to the read timeout for
  /// that; any bytes read on the way are kept.
  func isClosedByServer() async -> Bool { (try? await blocking { $0.isClosedByServer() }) ?? false }

  /// Whether, at this instant and without waiting, the connection is open and nothing from
  /// the server is waiting to be read (bytes already buffered count as something). It does
  /// not block, so it runs where it is called.
  func isOpenAndSilent() -> Bool { connection.isOpenAndSilent() }
}

/// The socket and its read buffer, with the blocking calls ``RawHTTPClient`` runs off the
/// test's thread. Unchecked: the client awaits each call before it makes the next, so one
/// thread at a time touches the buffer.
private final class Connection: @unchecked Sendable {
  private let fd: Int32
  private var buffer: [UInt8] = []

  /// Connects to `127.0.0.1:port`.
  init(port: Int, timeoutSeconds: Int) throws {
    #if canImport(Darwin)
      let fd = socket(AF_INET, SOCK_STREAM, 0)
    #else
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #endif
    guard fd >= 0 else { throw RawHTTPClient.ClientError.connectFailed(errno) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(port).bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let rc = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard rc == 0 else {
      let code = errno
      close(fd)
      throw RawHTTPClient.ClientError.connectFailed(code)
    }
    var timeout = timeval()
    timeout.tv_sec = numericCast(timeoutSeconds)
    _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    #if canImport(Darwin)
      var one: Int32 = 1
      _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
    #endif
    self.fd = fd
  }

  deinit { close(fd) }

  func send(_ bytes: [UInt8]) throws {
    #if canImport(Darwin)
      let flags: Int32 = 0
    #else
      let flags = Int32(MSG_NOSIGNAL)
    #endif
    var offset = 0
    while offset < bytes.count {
      let sent = bytes.withUnsafeBytes { sendBytes(fd, $0.baseAddress! + offset, bytes.count - offset, flags) }
      if sent > 0 {
        offset += sent
      } else if sent < 0 && errno == EINTR {
        continue
      } else {
        throw RawHTTPClient.ClientError.sendFailed(errno)
      }
    }
  }

  func shutdownWrite() { shutdown(fd, Int32(SHUT_WR)) }

  func readHead() throws -> RawHTTPClient.Response {
    let statusLine = try readLine()
    let parts = statusLine.split(separator: " ", maxSplits: 2)
    guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
      throw RawHTTPClient.ClientError.malformed("status line: \(statusLine)")
    }
    var headers: [(name: String, value: String)] = []
    while true {
      let line = try readLine()
      if line.isEmpty { break }
      guard let colon = line.firstIndex(of: ":") else { throw RawHTTPClient.ClientError.malformed("header: \(line)") }
      headers.append((line[..<colon].lowercased(), line[line.index(after: colon)...].trimmed(" \t")))
    }
    return RawHTTPClient.Response(status: status, headers: headers, body: [])
  }

  func readResponse(head isHEAD: Bool) throws -> RawHTTPClient.Response {
    var response = try readHead()
    if isHEAD || (100..<200).contains(response.status) || response.status == 204 || response.status == 304 { return response }
    if response.header("transfer-encoding")?.lowercased() == "chunked" {
      while let chunk = try readChunk() { response.body += chunk }
    } else if let length = response.header("content-length").flatMap({ Int($0) }) {
      response.body = try readExactly(length)
    } else {
      response.body = try readToEOF()
    }
    return response
  }

  func readChunk() throws -> [UInt8]? {
    let sizeLine = try readLine()
    guard let size = HTTPChunkedCoding.size(ofLine: Array(sizeLine.utf8)) else {
      throw RawHTTPClient.ClientError.malformed("chunk size: \(sizeLine)")
    }
    if size == 0 {
      while try !readLine().isEmpty {}
      return nil
    }
    let data = try readExactly(size)
    guard try readLine().isEmpty else { throw RawHTTPClient.ClientError.malformed("chunk end") }
    return data
  }

  func readToEOF() throws -> [UInt8] {
    while try fill() {}
    defer { buffer.removeAll() }
    return buffer
  }

  func isClosedByServer() -> Bool {
    (try? fill()) == false
  }

  func isOpenAndSilent() -> Bool {
    guard buffer.isEmpty else { return false }
    var byte: UInt8 = 0
    while true {
      let received = recv(fd, &byte, 1, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT))
      if received < 0 && errno == EINTR { continue }
      return received < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)
    }
  }

  /// Reads exactly `count` bytes.
  private func readExactly(_ count: Int) throws -> [UInt8] {
    while buffer.count < count {
      guard try fill() else { throw RawHTTPClient.ClientError.closed }
    }
    defer { buffer.removeFirst(count) }
    return Array(buffer[0..<count])
  }

  /// Reads a CRLF-terminated line (without the CRLF).
  private func readLine() throws -> String {
    var scanned = 0
    while true {
      if let newline = buffer[scanned...].firstIndex(of: 0x0A) {
        var end = newline
        if end > 0 && buffer[end - 1] == 0x0D { end -= 1 }
        let line = String(decoding: buffer[0..<end], as: UTF8.self)
        buffer.removeFirst(newline + 1)
        return line
      }
      scanned = buffer.count
      guard try fill() else { throw RawHTTPClient.ClientError.closed }
    }
  }

  /// Reads more bytes into the buffer; `false` at EOF.
  private func fill() throws -> Bool {
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
      let received = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if received > 0 {
        buffer += chunk[0..<received]
        return true
      }
      if received == 0 { return false }
      switch errno {
      case EINTR: continue
      case EAGAIN, EWOULDBLOCK: throw RawHTTPClient.ClientError.timedOut
      case ECONNRESET: return false
      default: throw RawHTTPClient.ClientError.closed
      }
    }
  }
}

/// The C `send`, which the client's own `send` methods hide.
private func sendBytes(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int, _ flags: Int32) -> Int {
  send(fd, bytes, count, flags)
}

extension Substring {
  fileprivate func trimmed(_ characters: String) -> String {
    var slice = self
    while let c = slice.first, characters.contains(c) { slice = slice.dropFirst() }
    while let c = slice.last, characters.contains(c) { slice = slice.dropLast() }
    return String(slice)
  }
}
