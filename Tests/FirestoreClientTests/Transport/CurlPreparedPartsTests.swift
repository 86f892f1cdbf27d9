#if canImport(CCurl)
  import Foundation
  import Testing

  @testable import FirestoreClient

  @Suite("Prepared parts: a transport's recent targets and header lists, made once and reused")
  struct CurlPreparedPartsTests {
    @Test("the same headers get the same list; other headers another")
    func headerListsAreShared() throws {
      let parts = CurlPreparedParts()
      let json = ["Authorization": "Bearer owner", "Content-Type": "application/json"]
      let plain = ["Authorization": "Bearer owner"]
      let first = try parts.headerList(for: json)
      #expect(try parts.headerList(for: json) === first)
      // Equal contents in another dictionary are the same headers.
      #expect(try parts.headerList(for: json.merging([:]) { $1 }) === first)
      #expect(try parts.headerList(for: plain) !== first)
      #expect(try parts.headerList(for: json) === first)
    }

    @Test("past the capacity, the least recently used list is made again; the one just used is kept")
    func leastRecentlyUsedGoes() throws {
      let parts = CurlPreparedParts()
      let sets = (0...CurlPreparedParts.headerListCapacity).map { ["x-n": "\($0)"] }
      let oldest = try parts.headerList(for: sets[0])
      let recent = try parts.headerList(for: sets[1])
      for headers in sets.dropFirst(2) { _ = try parts.headerList(for: headers) }
      #expect(try parts.headerList(for: sets[1]) === recent)
      // One past the capacity: the first set, used least recently, is gone.
      #expect(try parts.headerList(for: sets[0]) !== oldest)
    }

    @Test("a target: the URL as libcurl takes it, its host and scheme")
    func target() throws {
      let parts = CurlPreparedParts()
      let url = try #require(URL(string: "https://firestore.googleapis.com/v1/projects/p/databases/(default)/documents:commit"))
      let target = try parts.target(of: url)
      #expect(target.address == url.absoluteString)
      #expect(target.host == "firestore.googleapis.com")
      #expect(target.isHTTPS)
      #expect(try !parts.target(of: #require(URL(string: "HTTP://127.0.0.1:8080/v1"))).isHTTPS)
    }

    @Test("a URL that is not http or https, or has no host, is refused every time", arguments: ["ftp://host/x", "http:///nohost"])
    func refusedTargets(_ address: String) throws {
      let parts = CurlPreparedParts()
      let url = try #require(URL(string: address))
      for _ in 0..<2 {
        let error = #expect(throws: FirestoreError.self) { try parts.target(of: url) }
        #expect(error?.code == .invalidArgument)
      }
    }
  }
#endif
