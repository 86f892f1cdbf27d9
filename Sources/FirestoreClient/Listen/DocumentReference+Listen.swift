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
  ///   ``SnapshotMetadata`` are delivered; accepted for compatibility with the Firebase
  ///   Apple SDK, and without effect until the client has a cache.
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
  func listen() -> AsyncThrowingStream<DocumentSnapshot, any Error> {
    let kind: Result<Target.Kind, FirestoreError>
    do throws(FirestoreError) {
      kind = .success(.documents([try validated().name]))
    } catch {
      kind = .failure(error)
    }
    let reference = self
    return firestore.listenStream(kind) { watch in
      DocumentSnapshot(reference: reference, document: watch.documents.first, readTime: watch.readTime)
    }
  }
}
