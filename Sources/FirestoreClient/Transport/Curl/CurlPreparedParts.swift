#if canImport(CCurl)
  import FirestorePlatform
  import FirestoreWire
  import Foundation

  /// What a ``CurlTransport``'s exchanges make from their requests' URLs and headers (the
  /// checked target, the header list libcurl reads), kept for those a client sends again
  /// and again: its calls share one or two header sets per token, and its URLs repeat (the
  /// same call kinds, the documents an app reads again); making them anew cost each
  /// request several microseconds.
  ///
  /// Targets are kept by URL (a ``BoundedMemo``); header lists are the
  /// ``headerListCapacity`` most recently used, found by equality, which for the same
  /// dictionary is one comparison of references (so each is kept under the dictionary that
  /// last asked for it).
  final class CurlPreparedParts: Sendable {
    /// Where a request goes, as the exchange needs it.
    struct Target: Sendable {
      /// The URL as libcurl takes it.
      let address: String
      /// The host, for messages.
      let host: String
      /// Whether the scheme is `https` (else `http`).
      let isHTTPS: Bool
    }

    /// The most header lists kept.
    static let headerListCapacity = 8

    private let targets = BoundedMemo<URL, Target>(limit: 128)
    private let headerLists = Locked<[([String: String], CurlHeaderList)]>([])

    /// The target of `url`.
    ///
    /// - Throws: `invalidArgument` for a URL that is not `http` or `https`, or has no host.
    func target(of url: URL) throws(FirestoreError) -> Target {
      try targets.value(for: url) { () throws(FirestoreError) in
        let scheme = url.scheme?.lowercased()
        guard scheme == "http" || scheme == "https" else {
          throw FirestoreError(.invalidArgument, "cannot send to \(url.absoluteString): only http and https are supported")
        }
        guard let host = url.host, !host.isEmpty else {
          throw FirestoreError(.invalidArgument, "the URL \(url.absoluteString) has no host")
        }
        return Target(address: url.absoluteString, host: host, isHTTPS: scheme == "https")
      }
    }

    /// The header list of `headers` (see ``CurlHeaderList/init(headers:)``): a kept one,
    /// moved to the front, else a new one kept in front, the least recently used dropped
    /// past ``headerListCapacity``.
    func headerList(for headers: [String: String]) throws(FirestoreError) -> CurlHeaderList {
      let kept = headerLists.withLock { lists -> CurlHeaderList? in
        guard let index = lists.firstIndex(where: { $0.0 == headers }) else { return nil }
        let list = lists.remove(at: index).1
        // Kept under the caller's dictionary: its next request carries the same one, which
        // then matches by reference instead of key by key.
        lists.insert((headers, list), at: 0)
        return list
      }
      if let kept { return kept }
      let list = try CurlHeaderList(headers: headers)
      headerLists.withLock { lists in
        lists.insert((headers, list), at: 0)
        if lists.count > Self.headerListCapacity { lists.removeLast() }
      }
      return list
    }
  }
#endif
