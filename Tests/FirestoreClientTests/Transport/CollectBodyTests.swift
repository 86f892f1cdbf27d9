import FirestorePlatform
import Foundation
import Testing

@testable import FirestoreClient

@Suite("A reply's whole body: its pieces in order, whatever length the head announced")
struct CollectBodyTests {
  /// A response whose body comes as `pieces`, with `contentLength` in its head when given.
  private func response(_ pieces: [String], contentLength: String?) -> HTTPResponse {
    HTTPResponse(
      status: 200, headers: contentLength.map { ["content-length": $0] } ?? [:],
      body: AsyncThrowingStream { continuation in
        for piece in pieces { continuation.yield(Data(piece.utf8)) }
        continuation.finish()
      })
  }

  @Test(
    "the pieces are joined, the announced length only a hint",
    arguments: [nil, "11", "5", "0", "-3", "+5", "not a number", "99999999999999", "99999999999999999999"] as [String?])
  func joined(contentLength: String?) async throws {
    for pieces in [["hello world"], ["hello", " ", "world"], []] {
      let body = try await response(pieces, contentLength: contentLength).collectBody()
      #expect(String(decoding: body, as: UTF8.self) == pieces.joined())
    }
  }

  @Test("a piece handed over as a slice comes back with indices from 0")
  func slice() async throws {
    let whole = Data("xxhello".utf8)
    let response = HTTPResponse(
      status: 200, headers: ["content-length": "5"],
      body: AsyncThrowingStream { continuation in
        continuation.yield(whole[2...])
        continuation.finish()
      })
    let body = try await response.collectBody()
    #expect(body.startIndex == 0)
    #expect(body == Data("hello".utf8))
  }

  @Test("a complete body is the body itself; past the limit it fails; a slice comes back from 0")
  func complete() async throws {
    let data = Data("hello".utf8)
    #expect(try await HTTPResponse(status: 200, body: data).collectBody() == data)
    #expect(try await HTTPResponse(status: 200, body: Data()).collectBody() == Data())
    let error = await #expect(throws: FirestoreError.self) {
      try await HTTPResponse(status: 200, body: data).collectBody(limit: 4)
    }
    #expect(error?.replyUnusable == true)
    let slice = try await HTTPResponse(status: 200, body: Data("xxhello".utf8)[2...]).collectBody()
    #expect(slice.startIndex == 0)
    #expect(slice == data)
    // A body whose chunks are observed goes through the observer.
    let seen = Locked(0)
    let observed = HTTPResponse(status: 200, body: HTTPBody(data).observingChunks { chunk in seen.withLock { $0 += chunk.count } })
    #expect(try await observed.collectBody() == data)
    #expect(seen.withLock { $0 } == data.count)
  }

  @Test("a body past the limit fails, however short the head said it was")
  func limit() async throws {
    let error = await #expect(throws: FirestoreError.self) {
      try await response(["12345", "67890"], contentLength: "4").collectBody(limit: 8)
    }
    #expect(error?.code == .resourceExhausted)
    #expect(error?.replyUnusable == true)
  }
}
