#if canImport(CCurl)
  import CCurl
  import Testing

  @testable import FirestoreClient

  @Suite("Header list: request headers laid out as libcurl's list, in one allocation")
  struct CurlHeaderListTests {
    /// The list's lines, in order.
    private func lines(_ list: CurlHeaderList) -> [String] {
      var lines: [String] = []
      var node = list.first
      while let current = node {
        lines.append(String(cString: current.pointee.data))
        node = current.pointee.next
      }
      return lines
    }

    @Test("each line is `name: value`; an empty one `name;`, one to leave out `name:`")
    func layout() {
      let list = CurlHeaderList([
        .init(name: "Expect", value: ""), .init(name: "x-goog-request-params", value: "project_id=p&database_id=(default)"),
        .init(name: "X-Empty", value: "", sentEmpty: true), .init(name: "Ünïcode-Value", value: "héllo wörld"),
      ])
      #expect(
        lines(list) == [
          "Expect:", "x-goog-request-params: project_id=p&database_id=(default)", "X-Empty;", "Ünïcode-Value: héllo wörld",
        ])
    }

    @Test("no lines: no list")
    func empty() {
      #expect(CurlHeaderList([]).first == nil)
    }

    @Test("from a request's headers: an empty Expect first, then by name; framing headers left out; Connection only as close")
    func fromHeaders() throws {
      let list = try CurlHeaderList(headers: [
        "x-b": "2", "Content-Length": "9", "a-first": "1", "HOST": "elsewhere", "Transfer-Encoding": "chunked",
        "expect": "100-continue", "x-empty": "",
      ])
      #expect(lines(list) == ["Expect:", "a-first: 1", "x-b: 2", "x-empty;"])
      #expect(!list.closesConnection)
      let closing = try CurlHeaderList(headers: ["Connection": "CLOSE"])
      #expect(lines(closing) == ["Expect:", "Connection: close"])
      #expect(closing.closesConnection)
      let keepAlive = try CurlHeaderList(headers: ["connection": "keep-alive"])
      #expect(lines(keepAlive) == ["Expect:"])
      #expect(!keepAlive.closesConnection)
    }

    @Test(
      "a header that would break the request's framing is refused",
      arguments: [
        ["bad name": "v"], ["x-split": "a\r\nInjected: yes"], ["": "v"], ["x-nul": "a\u{0}b"], ["x:colon": "v"],
      ])
    func refused(_ headers: [String: String]) {
      let error = #expect(throws: FirestoreError.self) { try CurlHeaderList(headers: headers) }
      #expect(error?.code == .invalidArgument)
    }
  }
#endif
