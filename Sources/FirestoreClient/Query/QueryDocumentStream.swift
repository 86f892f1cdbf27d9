import FirestoreWire

/// The documents of a query as they arrive: what ``QueryConvertible/stream()`` returns.
///
/// Each iteration runs the query once. Documents are parsed as the reader asks for them,
/// and the transfer pauses while the reader is busy, so memory stays bounded however many
/// documents match. The first documents also go to the local cache, up to
/// ``maximumCachedBytes`` per iteration, so that a large export does not fill it.
public struct QueryDocumentStream: AsyncSequence, Sendable {
  public typealias Element = QueryDocumentSnapshot

  /// How many bytes of documents one iteration puts in the local cache at most.
  public static let maximumCachedBytes = 1 << 20
  /// Documents are handed to the cache in batches of this many.
  static let cacheBatch = 256

  let query: Query

  public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(query: query) }

  /// Reads the documents one by one.
  public struct AsyncIterator: AsyncIteratorProtocol {
    private enum Phase {
      case notStarted
      /// A `limit(toLast:)` query, read whole and reversed.
      case buffered(ArraySlice<QueryDocumentSnapshot>)
      case streaming(Query.Lowered, JSONArrayReader<RunQueryResponse>)
      case finished
    }

    private let query: Query
    private var phase = Phase.notStarted
    /// Documents read but not yet handed to the cache, and the bytes handed so far.
    private var uncached: [Document] = []
    private var cachedBytes = 0

    init(query: Query) { self.query = query }

    /// The next document, or `nil` after the last.
    public mutating func next() async throws -> QueryDocumentSnapshot? {
      do {
        while true {
          switch phase {
          case .finished:
            return nil
          case .buffered(var rest):
            guard let document = rest.popFirst() else {
              phase = .finished
              return nil
            }
            phase = .buffered(rest)
            return document
          case .notStarted:
            let lowered = try query.lowered()
            if lowered.reversesResults {
              phase = .buffered(try await query.run(consistency: nil).documents[...])
              continue
            }
            let call = query.runQueryCall(lowered, consistency: nil)
            let (first, reader) = try await query.firestore.rest.streamArray(call, RunQueryResponse.init(jsonBytes:))
            phase = .streaming(lowered, reader)
            if let snapshot = try take(first, lowered) { return snapshot }
          case .streaming(let lowered, let reader):
            guard let response = try await reader.next() else {
              flushToCache(lowered)
              phase = .finished
              return nil
            }
            if let snapshot = try take(response, lowered) { return snapshot }
          }
        }
      } catch {
        phase = .finished
        throw error
      }
    }

    /// The snapshot of a reply element that carries a document (some carry only a read time).
    private mutating func take(_ response: RunQueryResponse?, _ lowered: Query.Lowered) throws -> QueryDocumentSnapshot? {
      guard let response, let document = response.document else { return nil }
      if lowered.structuredQuery.select == nil && cachedBytes < QueryDocumentStream.maximumCachedBytes {
        cachedBytes += DocumentSize.of(name: document.name, fields: document.fields)
        uncached.append(document)
        if uncached.count >= QueryDocumentStream.cacheBatch { flushToCache(lowered) }
      }
      return try query.snapshot(document, readTime: response.readTime)
    }

    /// Hands the documents read since the last batch to the cache, in one transaction.
    private mutating func flushToCache(_ lowered: Query.Lowered) {
      guard !uncached.isEmpty else { return }
      query.firestore.localStore.didRunQuery(query.viewQuery(lowered), results: uncached, isComplete: false)
      uncached = []
    }
  }
}
