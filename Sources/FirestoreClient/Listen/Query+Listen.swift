import FirestoreWire
import Synchronization

extension QueryConvertible {
  /// The query's results, now and after every change, as an `AsyncSequence`.
  ///
  /// ```swift
  /// for try await snapshot in db.collection("cities").order(by: "population").snapshots {
  ///   for change in snapshot.documentChanges where change.type == .added {
  ///     print("new city", change.document.documentID)
  ///   }
  /// }
  /// ```
  public var snapshots: QuerySnapshots { snapshots(includeMetadataChanges: false) }

  /// The query's results as an `AsyncSequence`; see ``snapshots``.
  ///
  /// - Parameter includeMetadataChanges: whether snapshots that differ only in
  ///   ``SnapshotMetadata`` are delivered; accepted for compatibility with the Firebase
  ///   Apple SDK, and without effect until the client has a cache.
  public func snapshots(includeMetadataChanges: Bool) -> QuerySnapshots {
    QuerySnapshots(query: query, includeMetadataChanges: includeMetadataChanges)
  }

  /// Calls `listener` with the query's results now and after every change, until the
  /// returned registration is removed. On failure (an invalid query, or the server rejecting
  /// it) `listener` is called once with the error and never again.
  ///
  /// ```swift
  /// let registration = db.collection("cities").addSnapshotListener { snapshot, error in
  ///   guard let snapshot else { return print("error:", error!) }
  ///   print(snapshot.documents.map(\.documentID))
  /// }
  /// registration.remove()
  /// ```
  public func addSnapshotListener(
    includeMetadataChanges: Bool = false, _ listener: @escaping @Sendable (QuerySnapshot?, (any Error)?) -> Void
  ) -> ListenerRegistration {
    query.firestore.addListener(snapshots(includeMetadataChanges: includeMetadataChanges), listener)
  }
}

extension Query {
  /// Starts a listen of this query (see ``Firestore/listenStream(_:transform:)``).
  func listen() -> AsyncThrowingStream<QuerySnapshot, any Error> {
    let kind: Result<Target.Kind, FirestoreError>
    let reverses: Bool
    do throws(FirestoreError) {
      let lowered = try lowered()
      let parentName = firestore.documentsRoot + (parent.segments.isEmpty ? "" : "/" + parent.string)
      kind = .success(.query(parent: parentName, lowered.structuredQuery))
      reverses = lowered.reversesResults
    } catch {
      kind = .failure(error)
      reverses = false
    }
    let query = self
    // The view delivered last, in the caller's order (only needed to re-index reversed results).
    let previous = Mutex<[Document]>([])
    return firestore.listenStream(kind) { watch in
      var documents = watch.documents
      var wireChanges = watch.changes
      if reverses {
        documents.reverse()
        let old = previous.withLock { old in
          defer { old = documents }
          return old
        }
        wireChanges = ChangeReplay.changes(from: old, to: documents, kinds: watch.changes)
      }
      let readTime = watch.readTime
      let changes = try wireChanges.map { change in
        let type: DocumentChangeType
        switch change.kind {
        case .added: type = .added
        case .modified: type = .modified
        case .removed: type = .removed
        }
        return DocumentChange(
          type: type, document: try query.snapshot(change.document, readTime: readTime), oldIndex: change.oldIndex,
          newIndex: change.newIndex)
      }
      return QuerySnapshot(
        query: query, documents: try documents.map { try query.snapshot($0, readTime: readTime) }, readTime: readTime,
        documentChanges: changes)
    }
  }
}
