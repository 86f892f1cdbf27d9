#if canImport(CCurl)
  import CCurl
  import Glibc

  /// A request's header lines as the `curl_slist` libcurl takes for `CURLOPT_HTTPHEADER`,
  /// nodes and text in one allocation.
  ///
  /// libcurl only reads the list, while the transfer runs, so it need not come from
  /// `curl_slist_append`, which makes two allocations a line. The exchange that sets it
  /// frees it with ``deallocate()`` once libcurl is done with the handle.
  struct CurlHeaderList {
    /// One line: `name: value`, or `name;` for a header sent empty, or `name:` for one
    /// libcurl must leave out.
    struct Line {
      var name: String
      var value: String
      /// Sent as `name;`: present with an empty value.
      var sentEmpty = false
    }

    /// The first node, or `nil` for no lines.
    let first: UnsafeMutablePointer<curl_slist>?

    /// Lays `lines` out: the nodes first, then each line's text, NUL-terminated.
    init(_ lines: [Line]) {
      guard !lines.isEmpty else {
        first = nil
        return
      }
      let nodeBytes = lines.count * MemoryLayout<curl_slist>.stride
      let textBytes = lines.reduce(0) { $0 + $1.name.utf8.count + 2 + $1.value.utf8.count + 1 }
      let storage = UnsafeMutableRawPointer.allocate(byteCount: nodeBytes + textBytes, alignment: MemoryLayout<curl_slist>.alignment)
      let nodes = storage.bindMemory(to: curl_slist.self, capacity: lines.count)
      var text = (storage + nodeBytes).bindMemory(to: CChar.self, capacity: textBytes)
      for (index, line) in lines.enumerated() {
        let start = text
        text = Self.copy(line.name.utf8, to: text)
        if line.sentEmpty {
          text.pointee = CChar(UInt8(ascii: ";"))
          text += 1
        } else {
          text.pointee = CChar(UInt8(ascii: ":"))
          text += 1
          if !line.value.isEmpty {
            text.pointee = CChar(UInt8(ascii: " "))
            text += 1
            text = Self.copy(line.value.utf8, to: text)
          }
        }
        text.pointee = 0
        text += 1
        (nodes + index).initialize(to: curl_slist(data: start, next: index + 1 < lines.count ? nodes + index + 1 : nil))
      }
      first = nodes
    }

    private static func copy(_ bytes: String.UTF8View, to destination: UnsafeMutablePointer<CChar>) -> UnsafeMutablePointer<CChar> {
      var destination = destination
      for byte in bytes {
        destination.pointee = CChar(bitPattern: byte)
        destination += 1
      }
      return destination
    }

    /// Frees the list; libcurl must no longer hold it.
    func deallocate() {
      first.map { UnsafeMutableRawPointer($0).deallocate() }
    }
  }
#endif
