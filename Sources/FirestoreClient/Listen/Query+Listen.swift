import FirestoreEngine
import FirestorePlatform
import FirestoreWire

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
  ///   ``SnapshotMetadata`` are delivered: the server's first answer when it matches the
  ///   cached snapshot delivered before it, and the confirmation of this client's writes.
  ///   Either way, the first snapshot may come from the cache (``SnapshotMetadata/isFromCache``)
  ///   when the cache has matching documents, as in the Firebase Apple SDK.
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
  /// Starts a listen of this query (see ``Firestore/listenStream(_:view:includeMetadataChanges:render:)``).
  func listen(includeMetadataChanges: Bool) -> AsyncThrowingStream<QuerySnapshot, any Error> {
    let kind: Result<Target.Kind, FirestoreError>
    let reverses: Bool
    var view: ViewQuery?
    do throws(FirestoreError) {
      let lowered = try lowered()
      let parentName = firestore.documentsRoot + (parentPath.segments.isEmpty ? "" : "/" + parentPath.string)
      kind = .success(.query(parent: parentName, lowered.structuredQuery))
      reverses = lowered.reversesResults
      // Listen has no offset; the view matches what the target returns.
      var structured = lowered.structuredQuery
      structured.offset = nil
      view = .query(structured, parent: parentPath.string, collectionID: collectionID, allDescendants: allDescendants)
    } catch {
      kind = .failure(error)
      reverses = false
    }
    let query = self
    // The view delivered last, in the caller's order (only needed to re-index reversed results).
    let previous = Locked<[Document]>([])
    return firestore.listenStream(kind, view: view, includeMetadataChanges: includeMetadataChanges) { snapshot in
      var documents = snapshot.documents
      var wireChanges = snapshot.changes
      var wireMetadataChanges = snapshot.changesWithMetadata
      if reverses {
        documents.reverse()
        let old = previous.withLock { old in
          defer { old = documents }
          return old
        }
        wireChanges = ChangeReplay.changes(from: old, to: documents, kinds: snapshot.changes)
        wireMetadataChanges = ChangeReplay.changes(from: old, to: documents, kinds: snapshot.changesWithMetadata)
      }
      let readTime = snapshot.readTime
      func convert(_ changes: [FirestoreEngine.WatchChange]) throws -> [DocumentChange] {
        try changes.map { change in
          let type: DocumentChangeType
          switch change.kind {
          case .added: type = .added
          case .modified: type = .modified
          case .removed: type = .removed
          }
          let document = try query.snapshot(change.document, readTime: readTime, metadata: snapshot.metadata(of: change.document.name))
          return DocumentChange(type: type, document: document, oldIndex: change.oldIndex, newIndex: change.newIndex)
        }
      }
      return QuerySnapshot(
        query: query,
        documents: try documents.map { try query.snapshot($0, readTime: readTime, metadata: snapshot.metadata(of: $0.name)) },
        readTime: readTime, documentChanges: try convert(wireChanges), metadata: snapshot.metadata,
        metadataChanges: try convert(wireMetadataChanges))
    }
  }
}
