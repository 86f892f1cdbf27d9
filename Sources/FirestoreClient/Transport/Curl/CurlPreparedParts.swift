#if canImport(CCurl)
  import FirestorePlatform
  import FirestoreWire
  import Foundation

  /// What a ``CurlTransport``'s exchanges make from their requests' URLs and headers (the
  /// checked target, the header list libcurl reads), kept for the few of each a client
  /// sends again and again: a client's calls share a handful of URLs and one or two header
  /// sets per token, and making them anew cost each request several microseconds.
  ///
  /// Each kind keeps its ``capacity`` most recently used entries, found by equality (for
  /// the same dictionary or URL that is one comparison of references).
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

    /// The most entries of each kind kept.
    static let capacity = 8

    private let targets = Locked<[(URL, Target)]>([])
    private let headerLists = Locked<[([String: String], CurlHeaderList)]>([])

    /// The target of `url`.
    ///
    /// - Throws: `invalidArgument` for a URL that is not `http` or `https`, or has no host.
    func target(of url: URL) throws(FirestoreError) -> Target {
      try Self.recall(url, in: targets) { () throws(FirestoreError) in
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

    /// The header list of `headers` (see ``CurlHeaderList/init(headers:)``).
    func headerList(for headers: [String: String]) throws(FirestoreError) -> CurlHeaderList {
      try Self.recall(headers, in: headerLists) { () throws(FirestoreError) in try CurlHeaderList(headers: headers) }
    }

    /// The entry kept for `key`, moved to the front; else one made by `make` (outside the
    /// lock) and kept in front, the least recently used dropped past ``capacity``.
    private static func recall<Key: Equatable & Sendable, Value: Sendable>(
      _ key: Key, in entries: Locked<[(Key, Value)]>, make: () throws(FirestoreError) -> Value
    ) throws(FirestoreError) -> Value {
      let kept = entries.withLock { list -> Value? in
        guard let index = list.firstIndex(where: { $0.0 == key }) else { return nil }
        let entry = list[index]
        if index > 0 {
          list.remove(at: index)
          list.insert(entry, at: 0)
        }
        return entry.1
      }
      if let kept { return kept }
      let value = try make()
      entries.withLock { list in
        list.insert((key, value), at: 0)
        if list.count > capacity { list.removeLast() }
      }
      return value
    }
  }
#endif
