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
      defer { list.deallocate() }
      #expect(
        lines(list) == [
          "Expect:", "x-goog-request-params: project_id=p&database_id=(default)", "X-Empty;", "Ünïcode-Value: héllo wörld",
        ])
    }

    @Test("no lines: no list")
    func empty() {
      let list = CurlHeaderList([])
      #expect(list.first == nil)
      list.deallocate()
    }
  }
#endif
