import FirestorePlatform
import FirestoreTestSupport
import Foundation
import Testing

@testable import FirestoreClient

/// A request that reads its whole body (a unary call) gets its head with the body
/// complete; a reply too large to hold waits no longer than the buffer allows; a streamed
/// request still gets its head and pieces as they come.
@Suite struct WholeBodyReadTests {
  /// A server that sends the head and a first piece, then the rest once released.
  final class PausingServer {
    let release = DispatchSemaphore(value: 0)
    let firstPieceSent = Locked(false)
    private(set) var server: RawHTTPServer!

    init() throws {
      server = try RawHTTPServer { [release, firstPieceSent] connection, _ in
        guard connection.readRequest() != nil else { return }
        connection.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nfirst\r\n")
        firstPieceSent.withLock { $0 = true }
        release.wait()
        connection.write("6\r\nsecond\r\n0\r\n\r\n")
      }
    }

    func stop() {
      release.signal()
      server.stop()
    }
  }

  @Test func headComesWithTheWholeBody() async throws {
    let paused = try PausingServer()
    defer { paused.stop() }
    var request = HTTPRequest(method: "GET", url: paused.server.url("/unary"))
    request.readsWholeBody = true
    let transport = CurlTransport()
    let call = Task { try await transport.send(request) }
    try await eventually("the server to send the head and a first piece") { paused.firstPieceSent.withLock { $0 } }
    paused.release.signal()
    let response = try await call.value
    #expect(response.body.arrivedWhole)
    #expect(String(decoding: try await response.collectBody(), as: UTF8.self) == "firstsecond")
  }

  @Test func streamedRequestGetsItsHeadAtOnce() async throws {
    let paused = try PausingServer()
    defer { paused.stop() }
    // The server sends the rest only once the head is here.
    let response = try await CurlTransport().send(HTTPRequest(method: "GET", url: paused.server.url("/stream")))
    #expect(!response.body.arrivedWhole)
    paused.release.signal()
    #expect(String(decoding: try await response.collectBody(), as: UTF8.self) == "firstsecond")
  }

  /// Past the buffer a whole-body read holds, the head is handed out with the transfer
  /// paused, and the rest streams to the reader.
  @Test func replyLargerThanTheBufferStreams() async throws {
    let piece = 64 << 10
    let total = CurlExchange.wholeBodyBuffer + 4 * piece
    let server = try Self.announcingServer(pieces: total / piece, of: piece, sendBuffer: 64 << 10)
    defer { server.stop() }
    let response = try await Self.readWhole(server.url("/large"))
    #expect(response.body.transferIsPaused)
    #expect(try await response.collectBody().count == total)
  }

  /// A reply of announced length that comes in many reads is buffered as one piece, so
  /// that gathering it copies nothing again.
  @Test func piecesOfAnAnnouncedReplyAreBufferedAsOne() async throws {
    let piece = 64 << 10
    let server = try Self.announcingServer(pieces: 3, of: piece, sendBuffer: 16 << 10)
    defer { server.stop() }
    let response = try await Self.readWhole(server.url("/pieces"))
    #expect(response.body.arrivedWhole)
    var chunks: [Int] = []
    for try await chunk in response.body { chunks.append(chunk.count) }
    #expect(chunks == [3 * piece])
  }

  /// A server that announces its reply's length and sends it in `pieces` writes of `size`
  /// bytes through a send buffer of `sendBuffer`.
  static func announcingServer(pieces: Int, of size: Int, sendBuffer: Int32) throws -> RawHTTPServer {
    let piece = [UInt8](repeating: UInt8(ascii: "x"), count: size)
    return try RawHTTPServer { connection, _ in
      guard connection.readRequest() != nil else { return }
      connection.limitSendBuffer(sendBuffer)
      connection.write("HTTP/1.1 200 OK\r\nContent-Length: \(pieces * size)\r\n\r\n")
      for _ in 0..<pieces {
        guard connection.write(bytes: piece) else { return }
      }
    }
  }

  /// A GET of `url` that reads its whole body, as a unary call does.
  static func readWhole(_ url: URL) async throws -> HTTPResponse {
    var request = HTTPRequest(method: "GET", url: url)
    request.readsWholeBody = true
    return try await CurlTransport().send(request)
  }

  /// A reply cut short reaches the reader of the body as an error, as for any request.
  @Test func replyCutShortFailsTheBody() async throws {
    let server = try RawHTTPServer { connection, _ in
      guard connection.readRequest() != nil else { return }
      connection.write("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc")
    }
    defer { server.stop() }
    let response = try await Self.readWhole(server.url("/cut"))
    let error = await #expect(throws: FirestoreError.self) { _ = try await response.collectBody() }
    #expect(error?.code == .unavailable, "\(String(describing: error))")
  }
}
