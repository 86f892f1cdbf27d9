/// The snapshots of one document as it changes: an `AsyncSequence` from
/// ``DocumentReference/snapshots``.
///
/// Iterating starts listening; the first element is the document's current state (with
/// ``DocumentSnapshot/exists`` `false` when it does not exist), then one element per
/// change, including creation and deletion. Leaving the loop stops listening.
///
/// ```swift
/// for try await snapshot in db.document("cities/SF").snapshots {
///   print(snapshot.exists ? snapshot.data()! : "deleted")
/// }
/// ```
public struct DocumentSnapshots: AsyncSequence, Sendable {
  /// Each element is the document's state at one moment.
  public typealias Element = DocumentSnapshot

  let reference: DocumentReference
  let options: SnapshotListenOptions

  /// Starts listening and returns the iterator.
  public func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(base: reference.listen(options: options).makeAsyncIterator())
  }

  /// Yields the snapshots; dropping it stops the listen.
  public struct AsyncIterator: AsyncIteratorProtocol {
    var base: AsyncThrowingStream<DocumentSnapshot, any Error>.Iterator

    /// The next snapshot, or `nil` when the listen was cancelled.
    public mutating func next() async throws -> DocumentSnapshot? {
      try await base.next()
    }
  }
}
