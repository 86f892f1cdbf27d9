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
  public var snapshots: QuerySnapshots { snapshots(options: SnapshotListenOptions()) }

  /// The query's results as an `AsyncSequence`; see ``snapshots``.
  ///
  /// - Parameter includeMetadataChanges: whether snapshots that differ only in
  ///   ``SnapshotMetadata`` are delivered: the server's first answer when it matches the
  ///   cached snapshot delivered before it, the confirmation of this client's writes, and
  ///   the listen stream going down and coming back (``SnapshotMetadata/isFromCache``).
  ///   Either way, the first snapshot may come from the cache when the cache has matching
  ///   documents, as in the Firebase Apple SDK.
  public func snapshots(includeMetadataChanges: Bool) -> QuerySnapshots {
    snapshots(options: SnapshotListenOptions().withIncludeMetadataChanges(includeMetadataChanges))
  }

  /// The query's results as an `AsyncSequence`, read where `options` say: with
  /// ``ListenSource/cache`` only from the local cache (nothing is sent to the server).
  ///
  /// ```swift
  /// for try await snapshot in favorites.snapshots(options: SnapshotListenOptions().withSource(.cache)) { … }
  /// ```
  public func snapshots(options: SnapshotListenOptions) -> QuerySnapshots {
    let query = self.query
    return QuerySnapshots { query.listen(options: options) }
  }

  /// Calls `listener` with the query's results now and after every change, until the
  /// returned registration is removed. On failure (an invalid query, or the server rejecting
  /// it) `listener` is called once with the error and never again.
  ///
  /// Listeners are called one at a time on ``FirestoreSettings/dispatchQueue`` (a serial
  /// queue of the instance's own unless set), as the Apple SDK calls them on its queue.
  ///
  /// ```swift
  /// let registration = db.collection("cities").addSnapshotListener { snapshot, error in
  ///   guard let snapshot else { return print("error:", error!) }
  ///   print(snapshot.documents.map(\.documentID))
  /// }
  /// registration.remove()
  /// ```
  @discardableResult
  public func addSnapshotListener(_ listener: @escaping (QuerySnapshot?, (any Error)?) -> Void) -> ListenerRegistration {
    addSnapshotListener(options: SnapshotListenOptions(), listener: listener)
  }

  /// Calls `listener` with the query's results now and after every change (see
  /// ``addSnapshotListener(_:)``); with `includeMetadataChanges`, also when only the
  /// snapshot's ``SnapshotMetadata`` changes.
  @discardableResult
  public func addSnapshotListener(
    includeMetadataChanges: Bool, listener: @escaping (QuerySnapshot?, (any Error)?) -> Void
  ) -> ListenerRegistration {
    addSnapshotListener(options: SnapshotListenOptions().withIncludeMetadataChanges(includeMetadataChanges), listener: listener)
  }

  /// Calls `listener` with the query's results, read where `options` say (see
  /// ``addSnapshotListener(_:)``).
  ///
  /// ```swift
  /// let options = SnapshotListenOptions().withSource(.cache).withIncludeMetadataChanges(true)
  /// let registration = query.addSnapshotListener(options: options) { snapshot, error in … }
  /// ```
  @discardableResult
  public func addSnapshotListener(
    options: SnapshotListenOptions, listener: @escaping (QuerySnapshot?, (any Error)?) -> Void
  ) -> ListenerRegistration {
    let query = self.query
    let (kind, view, render) = query.listenParts()
    return query.firestore.listenWithCallback(kind, view: view, options: options, render: render, listener: listener)
  }
}

extension Query {
  /// Starts a listen of this query as a stream (see ``Firestore/listenStream(_:view:options:render:)``).
  func listen(options: SnapshotListenOptions) -> AsyncThrowingStream<QuerySnapshot, any Error> {
    let (kind, view, render) = listenParts()
    return firestore.listenStream(kind, view: view, options: options, render: render)
  }

  /// What a listen of this query needs: its target, its view, and how a view's snapshot
  /// becomes a ``QuerySnapshot``.
  func listenParts() -> (
    kind: Result<Target.Kind, FirestoreError>, view: ViewQuery?, render: @Sendable (ViewSnapshot) throws -> QuerySnapshot
  ) {
    let kind: Result<Target.Kind, FirestoreError>
    let reverses: Bool
    var view: ViewQuery?
    do throws(FirestoreError) {
      let lowered = try lowered()
      let parentName = parentPath.name(below: firestore.documentsRoot)
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
    let render: @Sendable (ViewSnapshot) throws -> QuerySnapshot = { snapshot in
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
    return (kind, view, render)
  }
}
