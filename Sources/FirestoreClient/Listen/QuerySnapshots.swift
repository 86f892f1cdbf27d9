/// The snapshots of a query as it changes: an `AsyncSequence` from
/// ``QueryConvertible/snapshots``.
///
/// Iterating starts listening; the first element is the current result, then one element
/// per change. Leaving the loop (`break`, task cancellation, or dropping the iterator)
/// stops listening. The sequence fails with a ``FirestoreError`` if the query is invalid
/// (before anything is sent) or the server rejects the target.
///
/// ```swift
/// for try await snapshot in db.collection("cities").whereField("state", isEqualTo: "CA").snapshots {
///   print(snapshot.documents.map(\.documentID))
/// }
/// ```
public struct QuerySnapshots: AsyncSequence, Sendable {
  /// Each element is a complete, consistent result of the query.
  public typealias Element = QuerySnapshot

  let query: Query
  let options: SnapshotListenOptions

  /// Starts listening and returns the iterator.
  public func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(base: query.listen(options: options).makeAsyncIterator())
  }

  /// Yields the snapshots; dropping it stops the listen.
  public struct AsyncIterator: AsyncIteratorProtocol {
    var base: AsyncThrowingStream<QuerySnapshot, any Error>.Iterator

    /// The next snapshot, or `nil` when the listen was cancelled.
    public mutating func next() async throws -> QuerySnapshot? {
      try await base.next()
    }
  }
}
