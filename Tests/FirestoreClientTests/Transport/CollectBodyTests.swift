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

  @Test("a body past the limit fails, however short the head said it was")
  func limit() async throws {
    let error = await #expect(throws: FirestoreError.self) {
      try await response(["12345", "67890"], contentLength: "4").collectBody(limit: 8)
    }
    #expect(error?.code == .resourceExhausted)
    #expect(error?.replyTooLarge == true)
  }
}
