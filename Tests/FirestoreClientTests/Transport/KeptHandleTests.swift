import FirestorePlatform
import FirestoreTestSupport
import FirestoreWire
import Foundation
import Testing

@testable import FirestoreClient

/// A transport keeps the easy handles of requests that ended cleanly and gives them to the
/// next requests: nothing of an earlier request (its method, body, headers or a
/// `Connection: close`) may go out with a later one.
@Suite struct KeptHandleTests {
  /// A server that records every request it reads and answers each with `ok` (a `HEAD`
  /// with the head alone).
  func recordingServer() throws -> (RawHTTPServer, Locked<[String]>) {
    let seen = Locked<[String]>([])
    let server = try RawHTTPServer { connection, _ in
      while let request = connection.readRequest() {
        seen.withLock { $0.append(request) }
        connection.write(request.hasPrefix("HEAD ") ? "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n" : CurlTransportTests.ok)
      }
    }
    return (server, seen)
  }

  @Test func aKeptHandleCarriesNothingOfTheRequestBefore() async throws {
    let (server, seen) = try recordingServer()
    defer { server.stop() }
    let transport = CurlTransport()
    // A body that may go twice leaves with the head, from libcurl's copy of it; one that may
    // not, or one over 64 KB, through the upload callback.
    let copied = String(repeating: "c", count: 1000)
    let large = String(repeating: "x", count: 100_000)
    let requests = [
      HTTPRequest(method: "POST", url: server.url("/1"), headers: ["X-First": "1"], body: Data(copied.utf8), isIdempotent: true),
      HTTPRequest(method: "POST", url: server.url("/2"), body: Data("{}".utf8)),
      HTTPRequest(method: "GET", url: server.url("/3")),
      HTTPRequest(method: "DELETE", url: server.url("/4")),
      HTTPRequest(method: "POST", url: server.url("/5"), body: Data(large.utf8), isIdempotent: true),
      HTTPRequest(method: "GET", url: server.url("/6")),
      HTTPRequest(method: "HEAD", url: server.url("/7")),
      HTTPRequest(method: "POST", url: server.url("/8")),
      HTTPRequest(method: "PATCH", url: server.url("/9"), body: Data("[]".utf8)),
      HTTPRequest(method: "GET", url: server.url("/10")),
    ]
    for request in requests {
      let response = try await transport.send(request)
      #expect(response.status == 200)
      _ = try await response.collectBody()
      // The loop lets go of the exchange after its caller is answered: the next request
      // goes once the handle is back.
      try await eventually("the handle kept") { transport.handles.count == 1 }
    }
    // One handle served every request.
    #expect(transport.handles.made == 1)
    let lines = seen.withLock { $0 }
    try #require(lines.count == requests.count)
    let expected: [(line: String, body: String)] = [
      ("POST /1 HTTP/1.1", copied), ("POST /2 HTTP/1.1", "{}"), ("GET /3 HTTP/1.1", ""), ("DELETE /4 HTTP/1.1", ""),
      ("POST /5 HTTP/1.1", large), ("GET /6 HTTP/1.1", ""), ("HEAD /7 HTTP/1.1", ""), ("POST /8 HTTP/1.1", ""),
      ("PATCH /9 HTTP/1.1", "[]"), ("GET /10 HTTP/1.1", ""),
    ]
    for (request, want) in zip(lines, expected) {
      #expect(request.hasPrefix(want.line + "\r\n"), "\(request.prefix(40))")
      #expect(request.hasSuffix("\r\n\r\n" + want.body), "\(request.prefix(40))")
      #expect(request.contains("X-First") == want.line.hasPrefix("POST /1 "))
    }
    // No length where there is no body; a zero length for the empty POST.
    for index in [2, 3, 5, 6, 9] { #expect(!lines[index].lowercased().contains("content-length")) }
    #expect(lines[7].contains("\r\nContent-Length: 0\r\n"))
    #expect(server.accepted == 1)
  }

  /// A handle that sent `Connection: close` is kept, and the requests after it use and keep
  /// connections again.
  @Test func closeGoesWithItsOwnRequestOnly() async throws {
    let (server, seen) = try recordingServer()
    defer { server.stop() }
    let transport = CurlTransport()
    let close = try await transport.send(HTTPRequest(method: "GET", url: server.url("/close"), headers: ["connection": "close"]))
    _ = try await close.collectBody()
    for path in ["/a", "/b"] {
      try await eventually("the handle kept") { transport.handles.count == 1 }
      let response = try await transport.send(HTTPRequest(method: "GET", url: server.url(path)))
      _ = try await response.collectBody()
    }
    #expect(transport.handles.made == 1)
    #expect(server.accepted == 2)
    #expect(transport.statistics.connectionsOpened == 2)
    #expect(seen.withLock { $0 }.map { $0.contains("Connection: close") } == [true, false, false])
  }

  /// A transfer that failed leaves its handle behind: it is not kept.
  @Test func aFailedTransferIsNotKept() async throws {
    let server = try RawHTTPServer { connection, _ in
      _ = connection.readRequest()
      connection.write("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort")
    }
    defer { server.stop() }
    let transport = CurlTransport()
    let response = try await transport.send(HTTPRequest(method: "GET", url: server.url("/cut")))
    await #expect(throws: FirestoreError.self) { _ = try await response.collectBody() }
    // The next request gets a new handle, whether or not the loop has let go of the old one.
    let again = try await transport.send(HTTPRequest(method: "GET", url: server.url("/again")))
    _ = try? await again.collectBody()
    #expect(transport.handles.made == 2)
  }
}
