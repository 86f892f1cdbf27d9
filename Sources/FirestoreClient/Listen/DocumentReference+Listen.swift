import FirestoreWire

extension DocumentReference {
  /// The document's state, now and after every change, as an `AsyncSequence`.
  ///
  /// A document that does not exist gives a snapshot whose ``DocumentSnapshot/exists`` is
  /// `false`; creating or deleting it gives a new snapshot.
  ///
  /// ```swift
  /// for try await snapshot in db.document("cities/SF").snapshots {
  ///   print(snapshot.get("population") ?? "no population")
  /// }
  /// ```
  public var snapshots: DocumentSnapshots { snapshots(options: SnapshotListenOptions()) }

  /// The document's state as an `AsyncSequence`; see ``snapshots``.
  ///
  /// - Parameter includeMetadataChanges: whether snapshots that differ only in
  ///   ``SnapshotMetadata`` are delivered (the server confirming a cached or pending state,
  ///   the listen stream going down and coming back). Either way the first snapshot may
  ///   come from the cache when it holds the document.
  public func snapshots(includeMetadataChanges: Bool) -> DocumentSnapshots {
    snapshots(options: SnapshotListenOptions().withIncludeMetadataChanges(includeMetadataChanges))
  }

  /// The document's state as an `AsyncSequence`, read where `options` say: with
  /// ``ListenSource/cache`` only from the local cache (nothing is sent to the server).
  public func snapshots(options: SnapshotListenOptions) -> DocumentSnapshots {
    DocumentSnapshots { self.listen(options: options) }
  }

  /// Calls `listener` with the document's state now and after every change, until the
  /// returned registration is removed. On failure `listener` is called once with the error.
  ///
  /// Listeners are called one at a time on ``FirestoreSettings/dispatchQueue`` (a serial
  /// queue of the instance's own unless set), as the Apple SDK calls them on its queue.
  ///
  /// ```swift
  /// let registration = db.document("cities/SF").addSnapshotListener { snapshot, error in
  ///   guard let snapshot else { return print("error:", error!) }
  ///   print(snapshot.exists ? "exists" : "missing")
  /// }
  /// registration.remove()
  /// ```
  @discardableResult
  public func addSnapshotListener(_ listener: @escaping (DocumentSnapshot?, (any Error)?) -> Void) -> ListenerRegistration {
    addSnapshotListener(options: SnapshotListenOptions(), listener: listener)
  }

  /// Calls `listener` with the document's state (see ``addSnapshotListener(_:)``); with
  /// `includeMetadataChanges`, also when only the snapshot's ``SnapshotMetadata`` changes.
  @discardableResult
  public func addSnapshotListener(
    includeMetadataChanges: Bool, listener: @escaping (DocumentSnapshot?, (any Error)?) -> Void
  ) -> ListenerRegistration {
    addSnapshotListener(options: SnapshotListenOptions().withIncludeMetadataChanges(includeMetadataChanges), listener: listener)
  }

  /// Calls `listener` with the document's state, read where `options` say (see
  /// ``addSnapshotListener(_:)``).
  @discardableResult
  public func addSnapshotListener(
    options: SnapshotListenOptions, listener: @escaping (DocumentSnapshot?, (any Error)?) -> Void
  ) -> ListenerRegistration {
    let (kind, view, render) = listenParts()
    return firestore.listenWithCallback(kind, view: view, options: options, render: render, listener: listener)
  }

  /// Starts a listen of this document as a stream.
  func listen(options: SnapshotListenOptions) -> AsyncThrowingStream<DocumentSnapshot, any Error> {
    let (kind, view, render) = listenParts()
    return firestore.listenStream(kind, view: view, options: options, render: render)
  }

  /// What a listen of this document needs: a documents target, its view, and how a view's
  /// snapshot becomes a ``DocumentSnapshot``.
  func listenParts() -> (
    kind: Result<Target.Kind, FirestoreError>, view: ViewQuery?, render: @Sendable (ViewSnapshot) throws -> DocumentSnapshot
  ) {
    let kind: Result<Target.Kind, FirestoreError>
    var view: ViewQuery?
    do throws(FirestoreError) {
      let ref = try validated()
      kind = .success(.documents([ref.name]))
      view = .document(name: ref.name, path: ref.path)
    } catch {
      kind = .failure(error)
    }
    let reference = self
    return (
      kind, view,
      { snapshot in
        DocumentSnapshot(
          reference: reference, document: snapshot.documents.first, readTime: snapshot.readTime,
          metadata: snapshot.metadata(of: reference.name))
      }
    )
  }
}
