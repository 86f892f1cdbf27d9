import Testing

@testable import FirestoreClient

@Suite("Response head: the lines libcurl hands over, read into a status and fields")
struct ResponseHeadReaderTests {
  /// Feeds `lines` (each with its CRLF) and the blank line that ends a head.
  private func read(_ lines: [String]) -> ResponseHeadReader {
    var reader = ResponseHeadReader()
    for line in lines + [""] {
      Array((line + "\r\n").utf8).withUnsafeBytes { _ = reader.append($0) }
    }
    return reader
  }

  @Test(
    "the status is the status line's second word",
    arguments: [
      ("HTTP/1.1 200 OK", 200), ("HTTP/2 404", 404), ("HTTP/1.1  503  Service Unavailable", 503), ("HTTP/1.1 abc", nil),
      ("HTTP/1.1", nil),
    ] as [(String, Int?)])
  func status(line: String, status: Int?) {
    #expect(read([line, "content-type: application/json"]).completedStatus == status)
  }

  @Test("names are lower-cased, values trimmed, a repeated name's values joined")
  func fields() {
    let head = read(["HTTP/1.1 200 OK", "Content-Type:  application/json \t", "Vary: Origin", "vary: X-Origin"])
    #expect(head.headers == ["content-type": "application/json", "vary": "Origin, X-Origin"])
  }

  @Test("an interim head is skipped, its fields with it")
  func interim() {
    let head = read(["HTTP/1.1 100 Continue", "X-Interim: yes", "", "HTTP/1.1 201 Created", "Location: /a"])
    #expect(head.completedStatus == 201)
    #expect(head.headers == ["location": "/a"])
  }
}
