#if canImport(CCurl)
  import BenchmarkSupport
  import CCurl
  import FirestoreClient
  import Foundation

  /// curl's way of sending a request, in this process: libcurl's easy interface on the
  /// calling thread, blocking until the reply is in, one handle (so one kept connection) for
  /// every request, the body counted and dropped as `curl -o /dev/null` drops it. The
  /// paired scenarios time it request by request beside the client, so that both meet the
  /// same moment of a machine whose speed drifts.
  ///
  /// It blocks its thread, which the client never does: only the benchmark uses it.
  final class CurlEasyBaseline {
    private let easy: UnsafeMutableRawPointer
    private var headers: UnsafeMutablePointer<curl_slist>?
    /// The last reply's body, when the baseline keeps bodies.
    private(set) var body = Data()

    /// A baseline that drops each reply's body, or with `keepsBody` keeps it in ``body``.
    init(keepsBody: Bool = false) throws {
      guard let easy = curl_easy_init() else { throw ToolFailure("libcurl could not make an easy handle") }
      self.easy = easy
      _ = swiftfirestore_curl_setopt_long(easy, CURLOPT_NOSIGNAL, 1)
      _ = swiftfirestore_curl_setopt_long(easy, CURLOPT_TCP_NODELAY, 1)
      _ = swiftfirestore_curl_setopt_write_function(easy, CURLOPT_WRITEFUNCTION) { bytes, size, count, baseline in
        if let bytes, let baseline {
          Unmanaged<CurlEasyBaseline>.fromOpaque(baseline).takeUnretainedValue().body.append(
            UnsafeRawPointer(bytes).assumingMemoryBound(to: UInt8.self), count: size * count)
        }
        return size * count
      }
      // Always set: libcurl's default is `stdout`, which the callback would take for this.
      _ = swiftfirestore_curl_setopt_pointer(easy, CURLOPT_WRITEDATA, keepsBody ? Unmanaged.passUnretained(self).toOpaque() : nil)
    }

    deinit {
      curl_easy_cleanup(easy)
      curl_slist_free_all(headers)
    }

    /// Sends `request` (its method, URL, headers and body) and returns the reply's status.
    func send(_ request: HTTPRequest) throws -> Int {
      body.removeAll(keepingCapacity: true)
      curl_slist_free_all(headers)
      headers = nil
      for (name, value) in request.headers { headers = curl_slist_append(headers, "\(name): \(value)") }
      headers = curl_slist_append(headers, "Expect:")
      _ = swiftfirestore_curl_setopt_pointer(easy, CURLOPT_HTTPHEADER, headers)
      _ = swiftfirestore_curl_setopt_pointer(easy, CURLOPT_URL, request.url.absoluteString)
      if let body = request.body {
        _ = swiftfirestore_curl_setopt_long(easy, CURLOPT_POST, 1)
        _ = swiftfirestore_curl_setopt_offset(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count))
        body.withUnsafeBytes { _ = swiftfirestore_curl_setopt_pointer(easy, CURLOPT_COPYPOSTFIELDS, $0.baseAddress) }
      } else {
        _ = swiftfirestore_curl_setopt_long(easy, CURLOPT_HTTPGET, 1)
      }
      let code = curl_easy_perform(easy)
      guard code == CURLE_OK else { throw ToolFailure("curl: \(String(cString: curl_easy_strerror(code)))") }
      var status = 0
      _ = swiftfirestore_curl_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
      return status
    }
  }
#endif
