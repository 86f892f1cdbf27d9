/// The snapshots of a document or a query as it changes: an `AsyncSequence` from
/// ``DocumentReference/snapshots`` (``DocumentSnapshots``) or ``QueryConvertible/snapshots``
/// (``QuerySnapshots``).
///
/// Iterating starts listening; the first element is the current state (for a document that
/// does not exist, a snapshot whose ``DocumentSnapshot/exists`` is `false`), then one element
/// per change. Leaving the loop (`break`, task cancellation, or dropping the iterator) stops
/// listening. The sequence fails with a ``FirestoreError`` if the query is invalid (before
/// anything is sent) or the server rejects the target.
///
/// ```swift
/// for try await snapshot in db.collection("cities").whereField("state", isEqualTo: "CA").snapshots {
///   print(snapshot.documents.map(\.documentID))
/// }
/// ```
public struct SnapshotSequence<Element: Sendable>: AsyncSequence, Sendable {
  /// Starts the listen.
  let listen: @Sendable () -> AsyncThrowingStream<Element, any Error>

  /// Starts listening and returns the iterator.
  public func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(base: listen().makeAsyncIterator())
  }

  /// Yields the snapshots; dropping it stops the listen.
  public struct AsyncIterator: AsyncIteratorProtocol {
    var base: AsyncThrowingStream<Element, any Error>.Iterator

    /// The next snapshot, or `nil` when the listen was cancelled.
    public mutating func next() async throws -> Element? {
      try await base.next()
    }
  }
}

/// The snapshots of one document as it changes, creation and deletion included.
///
/// ```swift
/// for try await snapshot in db.document("cities/SF").snapshots {
///   print(snapshot.exists ? snapshot.data()! : "deleted")
/// }
/// ```
public typealias DocumentSnapshots = SnapshotSequence<DocumentSnapshot>

/// The snapshots of a query as it changes; each is a complete, consistent result.
public typealias QuerySnapshots = SnapshotSequence<QuerySnapshot>
