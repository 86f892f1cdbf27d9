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
  public var snapshots: DocumentSnapshots { snapshots(includeMetadataChanges: false) }

  /// The document's state as an `AsyncSequence`; see ``snapshots``.
  ///
  /// - Parameter includeMetadataChanges: whether snapshots that differ only in
  ///   ``SnapshotMetadata`` are delivered (the server confirming a cached or pending state).
  ///   Either way the first snapshot may come from the cache when it holds the document.
  public func snapshots(includeMetadataChanges: Bool) -> DocumentSnapshots {
    DocumentSnapshots(reference: self, includeMetadataChanges: includeMetadataChanges)
  }

  /// Calls `listener` with the document's state now and after every change, until the
  /// returned registration is removed. On failure `listener` is called once with the error.
  ///
  /// ```swift
  /// let registration = db.document("cities/SF").addSnapshotListener { snapshot, error in
  ///   guard let snapshot else { return print("error:", error!) }
  ///   print(snapshot.exists ? "exists" : "missing")
  /// }
  /// registration.remove()
  /// ```
  public func addSnapshotListener(
    includeMetadataChanges: Bool = false, _ listener: @escaping @Sendable (DocumentSnapshot?, (any Error)?) -> Void
  ) -> ListenerRegistration {
    firestore.addListener(snapshots(includeMetadataChanges: includeMetadataChanges), listener)
  }

  /// Starts a listen of this document (a documents target).
  func listen(includeMetadataChanges: Bool) -> AsyncThrowingStream<DocumentSnapshot, any Error> {
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
    return firestore.listenStream(kind, view: view, includeMetadataChanges: includeMetadataChanges) { snapshot in
      DocumentSnapshot(
        reference: reference, document: snapshot.documents.first, readTime: snapshot.readTime,
        metadata: snapshot.metadata(of: reference.name))
    }
  }
}
