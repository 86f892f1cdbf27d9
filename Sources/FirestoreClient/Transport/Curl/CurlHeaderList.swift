#if canImport(CCurl)
  import CCurl
  import FirestoreWire
  import Glibc

  /// A request's header lines as the `curl_slist` libcurl takes for `CURLOPT_HTTPHEADER`,
  /// nodes and text in one allocation, freed with the list.
  ///
  /// libcurl only reads the list, while the transfer runs, so it need not come from
  /// `curl_slist_append`, which makes two allocations a line; and since nothing writes it
  /// after it is made, one list serves every exchange that sends the same headers (see
  /// ``CurlPreparedParts``). Each exchange holds the list it set until its handle no longer
  /// points at it.
  final class CurlHeaderList: @unchecked Sendable {
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
    /// Whether the headers ask for `Connection: close`: a connection of the request's own,
    /// used once.
    let closesConnection: Bool

    /// Lays `lines` out: the nodes first, then each line's text, NUL-terminated.
    init(_ lines: [Line], closesConnection: Bool = false) {
      self.closesConnection = closesConnection
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

    /// The lines for a request's `headers`, in name order, after an empty `Expect` (no
    /// `100-continue` round trip before a body). The headers libcurl writes from the request
    /// itself (`Host`, `Content-Length`, `Transfer-Encoding`, `Expect`) are left out, and so
    /// is any `Connection` but `close`.
    ///
    /// - Throws: `invalidArgument` for a name or value that would break the request's framing.
    convenience init(headers: [String: String]) throws(FirestoreError) {
      var lines = [Line(name: "Expect", value: "")]
      lines.reserveCapacity(headers.count + 1)
      var closes = false
      for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
        if Self.isNamed(name, "host") || Self.isNamed(name, "content-length") || Self.isNamed(name, "transfer-encoding")
          || Self.isNamed(name, "expect")
        {
          continue
        }
        guard !name.isEmpty, !name.utf8.contains(where: { $0 <= 0x20 || $0 == UInt8(ascii: ":") || $0 >= 0x7F }),
          !value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 })
        else {
          throw FirestoreError(.invalidArgument, "header \"\(name.prefix(40))\" has a name or value that would break the request")
        }
        if Self.isNamed(name, "connection") {
          // Only `close` passes: the caller wants a connection of its own, used once.
          // (HTTP/2 has no such header; libcurl leaves it out there.)
          guard Self.isNamed(value, "close") else { continue }
          closes = true
          lines.append(Line(name: "Connection", value: "close"))
          continue
        }
        lines.append(Line(name: name, value: value, sentEmpty: value.isEmpty))
      }
      self.init(lines, closesConnection: closes)
    }

    deinit {
      first.map { UnsafeMutableRawPointer($0).deallocate() }
    }

    /// Whether `text` is `lowercaseName` in any case (ASCII), without lowercasing a copy.
    private static func isNamed(_ text: String, _ lowercaseName: StaticString) -> Bool {
      let name = UnsafeBufferPointer(start: lowercaseName.utf8Start, count: lowercaseName.utf8CodeUnitCount)
      return text.utf8.count == name.count
        && zip(text.utf8, name).allSatisfy { $0 == $1 || ($0 | 0x20 == $1 && (0x61...0x7A).contains($1)) }
    }

    private static func copy(_ bytes: String.UTF8View, to destination: UnsafeMutablePointer<CChar>) -> UnsafeMutablePointer<CChar> {
      var destination = destination
      for byte in bytes {
        destination.pointee = CChar(bitPattern: byte)
        destination += 1
      }
      return destination
    }
  }
#endif
