import FirestoreEngine
import FirestoreWire

/// The documents of a query as they arrive: what ``QueryConvertible/stream()`` returns.
///
/// Each iteration runs the query once. Documents are parsed as the reader asks for them,
/// and the transfer pauses while the reader is busy, so memory stays bounded however many
/// documents match. The first documents also go to the local cache, up to
/// ``maximumCachedBytes`` per iteration, so that a large export does not fill it.
///
/// A reply that breaks with an error worth retrying after it brought documents is asked
/// again for the rest, as the server SDKs' streams do: after the last document read, at
/// that document's read time (so the rest comes from the same state of the database),
/// with the limit less what was read and no offset (it was spent), unless the retry policy
/// allows no retry (``RetryPolicy/none``). Each such retry brings
/// at least one document more, or the error ends the sequence.
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
      /// Reading the reply of `query` (the iteration's, or its rest after a broken reply),
      /// `read` documents in so far, the last of them `last`.
      case streaming(Query, Query.Lowered, JSONArrayReader<RunQueryResponse>, read: Int, last: (QueryDocumentSnapshot, Timestamp?)?)
      case finished
    }

    private let query: Query
    private var phase = Phase.notStarted
    /// Documents read but not yet handed to the cache, and the bytes handed so far.
    private var uncached: [Document] = []
    /// After a resume, the document the rest must come after.
    private var resumedAfter: Document?
    /// When a broken reply is asked again (``RetryPolicy/resumesBrokenReply(after:)``).
    private var policy: RetryPolicy { query.firestore.rest.settings.retryPolicy }
    /// Resumes of a projection, whose reply cannot be checked for order (see ``take(_:_:)``).
    private var projectionResumes = 0
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
            if let snapshot = try await start(query, lowered, consistency: nil) { return snapshot }
          case .streaming(let current, let lowered, let reader, let read, let last):
            let response: RunQueryResponse?
            do {
              response = try await reader.next()
            } catch let error as FirestoreError where last != nil && policy.resumesBrokenReply(after: error) {
              flushToCache(lowered)
              let (document, readTime) = last!
              guard let rest = Self.rest(of: current, after: document, read: read) else {
                phase = .finished
                return nil
              }
              if lowered.structuredQuery.select != nil {
                projectionResumes += 1
                if projectionResumes >= policy.maximumAttempts { throw error }
              }
              resumedAfter = document.document
              if let snapshot = try await start(rest, try rest.lowered(), consistency: readTime.map(ReadConsistency.readTime)) {
                return snapshot
              }
              continue
            }
            guard let response else {
              flushToCache(lowered)
              phase = .finished
              return nil
            }
            if let snapshot = try take(response, lowered) {
              phase = .streaming(current, lowered, reader, read: read + 1, last: (snapshot, response.readTime))
              return snapshot
            }
          }
        }
      } catch {
        phase = .finished
        throw error
      }
    }

    /// Sends `query`; returns the first document of its reply, if its first element holds
    /// one, and reads on from there.
    private mutating func start(
      _ query: Query, _ lowered: Query.Lowered, consistency: ReadConsistency?
    ) async throws -> QueryDocumentSnapshot? {
      let call = query.runQueryCall(lowered, consistency: consistency)
      let (first, reader) = try await query.firestore.rest.streamArray(call, RunQueryResponse.init(jsonBytes:))
      guard let first, let snapshot = try take(first, lowered) else {
        phase = .streaming(query, lowered, reader, read: 0, last: nil)
        return nil
      }
      phase = .streaming(query, lowered, reader, read: 1, last: (snapshot, first.readTime))
      return snapshot
    }

    /// What is left of `query` after `document`, the `read`-th result of its reply; `nil`
    /// when its limit is reached.
    private static func rest(of query: Query, after document: QueryDocumentSnapshot, read: Int) -> Query? {
      var definition = query.start(afterDocument: document).definition
      if let limit = definition.limitValue {
        guard limit > read else { return nil }
        definition.limitValue = limit - read
      }
      definition.offsetValue = nil
      return Query(firestore: query.firestore, definition: definition)
    }

    /// The snapshot of a reply element that carries a document (some carry only a read time).
    ///
    /// After a resume, the first document must come after the last one read, as the query
    /// orders them: a server that ignores the cursor would otherwise send the same documents
    /// again, round after round. A projection's documents may lack the ordered fields, so
    /// its resumes are counted instead.
    private mutating func take(_ response: RunQueryResponse?, _ lowered: Query.Lowered) throws -> QueryDocumentSnapshot? {
      guard let response, let document = response.document else { return nil }
      if let after = resumedAfter {
        resumedAfter = nil
        if lowered.structuredQuery.select == nil && DocumentOrdering(query: lowered.structuredQuery).compare(document, after) <= 0 {
          throw FirestoreError(
            .internal, "the server's reply to the rest of the query started at \(document.name), not after \(after.name) where it broke")
        }
      }
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
