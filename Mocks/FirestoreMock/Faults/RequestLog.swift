import FirestorePlatform
import FirestoreWire
import Foundation

/// Every request a ``MockHTTPServer`` read, in arrival order, including the ones that got
/// an injected fault or a 400/413 from the server itself (but not connections whose
/// request line could not be parsed).
///
/// Entries are added when the request has been read, before the handler runs, and get
/// their ``RequestLogEntry/status`` once a response is chosen. The log keeps the newest
/// ``capacity`` entries.
public final class RequestLog: Sendable {
  private struct State {
    var entries: [RequestLogEntry] = []
    var nextID = 0
  }

  private let state = Locked(State())
  /// How many entries are kept; older ones are dropped first.
  public let capacity: Int

  /// Creates an empty log that keeps at most `capacity` entries.
  public init(capacity: Int = 100_000) {
    self.capacity = max(1, capacity)
  }

  /// The recorded requests, oldest first.
  public var entries: [RequestLogEntry] {
    state.withLock { $0.entries }
  }

  /// Forgets every entry.
  public func clear() {
    state.withLock { $0.entries.removeAll() }
  }

  /// How many recorded requests have a decoded path ending with `pathSuffix` (any path when
  /// nil) and the method `method` (compared ignoring case; any method when nil).
  public func count(matching pathSuffix: String? = nil, method: String? = nil) -> Int {
    let method = method?.uppercased()
    return state.withLock { state in
      state.entries.reduce(0) { total, entry in
        let pathMatches = pathSuffix.map { entry.path.hasSuffix($0) } ?? true
        let methodMatches = method.map { entry.method == $0 } ?? true
        return total + (pathMatches && methodMatches ? 1 : 0)
      }
    }
  }

  /// Records a request that has been read, returning its entry's id.
  func begin(
    method: String, path: String, query: String, headers: [(name: String, value: String)], bodySize: Int, faults: [Fault],
    status: Int? = nil
  ) -> Int {
    state.withLock { state in
      let id = state.nextID
      state.nextID += 1
      state.entries.append(
        RequestLogEntry(
          id: id, time: Date(), method: method, path: path, query: query, headers: headers, bodySize: bodySize, status: status,
          faults: faults))
      if state.entries.count > capacity { state.entries.removeFirst(state.entries.count - capacity) }
      return id
    }
  }

  /// Sets the response status of entry `id` (if it is still in the log).
  func setStatus(_ status: Int, of id: Int) {
    update(id) { $0.status = status }
  }

  /// Records the size and coding of a complete response body as sent.
  func setResponseBody(size: Int, encoding: String?, of id: Int) {
    update(id) {
      $0.responseBodySize = size
      $0.responseEncoding = encoding
    }
  }

  private func update(_ id: Int, _ change: (inout RequestLogEntry) -> Void) {
    state.withLock { state in
      guard let first = state.entries.first?.id else { return }
      let index = id - first
      // Ids are consecutive within the kept entries, so the entry sits at `id - first`.
      if state.entries.indices.contains(index), state.entries[index].id == id { change(&state.entries[index]) }
    }
  }
}
