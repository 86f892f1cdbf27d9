import FirestorePlatform

#if canImport(CCurl)
  import CCurl

  /// The easy handles of a ``CurlTransport``: made here, and kept once their transfers
  /// ended cleanly, for the transport's next requests.
  ///
  /// libcurl's advice is to reuse handles: a fresh one is allocated and set up for each
  /// request and freed after it, with its receive buffer. A kept handle holds the options
  /// every request of its transport shares (callbacks, buffer, timeouts, trust, proxy); the
  /// exchange that takes one sets the rest again (see ``CurlExchange``). Only handles out of
  /// every multi handle, whose transfers ended with `CURLE_OK`, come back.
  final class CurlHandlePool: Sendable {
    /// The most handles kept: as many as requests usually run at once.
    static let capacity = 16

    /// A handle no transfer uses: whoever holds it owns it.
    private struct Idle: @unchecked Sendable {
      let easy: UnsafeMutableRawPointer
    }

    private let idle = Locked<(handles: [Idle], made: Int)>(([], 0))

    /// How many handles are kept now (for tests).
    var count: Int { idle.withLock { $0.handles.count } }

    /// How many handles the pool has made (for tests).
    var made: Int { idle.withLock { $0.made } }

    /// A kept handle, else a new one (`fresh`: it has no options set); `nil` when libcurl
    /// cannot make one.
    func take() -> (easy: UnsafeMutableRawPointer, fresh: Bool)? {
      if let kept = idle.withLock({ $0.handles.popLast() }) { return (kept.easy, false) }
      guard let easy = curl_easy_init() else { return nil }
      idle.withLock { $0.made += 1 }
      return (easy, true)
    }

    /// Keeps `easy` for a later request, or frees it when enough are kept.
    func put(_ easy: UnsafeMutableRawPointer) {
      let kept = idle.withLock { pool -> Bool in
        guard pool.handles.count < Self.capacity else { return false }
        pool.handles.append(Idle(easy: easy))
        return true
      }
      if !kept { curl_easy_cleanup(easy) }
    }

    deinit {
      for handle in idle.withLock({ $0.handles }) { curl_easy_cleanup(handle.easy) }
    }
  }
#endif
