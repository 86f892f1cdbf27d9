import FirestoreWire

extension Firestore {
  /// The most document names sent in one `:batchGet`; longer lists are split.
  static let batchGetChunkSize = 1000

  /// Reads several documents in one round trip (`:batchGet`).
  ///
  /// Results come back in the order asked, one per reference (a duplicate reference gets
  /// the same snapshot twice); a missing document is a snapshot with `exists == false`.
  /// Lists longer than Firestore accepts in one request are split transparently.
  ///
  /// ```swift
  /// let snapshots = try await db.getAll([db.document("a/1"), db.document("a/2")], fieldMask: ["title"])
  /// ```
  ///
  /// - Parameters:
  ///   - references: the documents to read, duplicates allowed.
  ///   - fieldMask: fields to return (dotted strings or ``FieldPath``s); `nil` returns
  ///     whole documents, `[]` none (an existence check).
  ///   - readTime: read the documents as they were at this time.
  public func getAll(
    _ references: [DocumentReference], fieldMask: [any FieldPathConvertible]? = nil, readTime: Timestamp? = nil
  ) async throws -> [DocumentSnapshot] {
    try await batchGet(references, fieldMask: fieldMask, consistency: readTime.map { .readTime($0) })
  }

  /// The `:batchGet` behind `getAll` and transactional reads.
  func batchGet(
    _ references: [DocumentReference], fieldMask: [any FieldPathConvertible]?, consistency: ReadConsistency?,
    chunkSize: Int = batchGetChunkSize
  ) async throws -> [DocumentSnapshot] {
    var mask: [String]?
    if let fieldMask {
      mask = []
      for field in fieldMask { mask?.append(try field.fieldPath().canonicalString) }
    }
    // One table for every name asked for: it drops the duplicates, checks the reply's
    // names and keeps their results (`nil` until the reply has one), each document's name
    // hashed once per step.
    var unique: [String] = []
    unique.reserveCapacity(references.count)
    var found = [String: (document: Document?, readTime: Timestamp?)?](reservingCapacity: references.count)
    for ref in references {
      let ref = try ref.validated()
      guard ref.firestore === self else {
        throw FirestoreError(.invalidArgument, "document \(ref.path) belongs to another Firestore instance")
      }
      // `updateValue` returns the entry it replaced: none for a name not seen before.
      if found.updateValue(nil, forKey: ref.name) == nil { unique.append(ref.name) }
    }
    let learns = mask == nil && consistency.touchesLocalStore
    var start = 0
    while start < unique.count {
      let chunk = Array(unique[start..<min(start + chunkSize, unique.count)])
      start += chunk.count
      let request = BatchGetRequest(documents: chunk, mask: mask, consistency: consistency)
      let elements = try await rest.unary(
        .init(.batchGet, body: request.json), BatchGetResponse.decodeArray)
      // A reply may name only the documents of its own request.
      let askedHere = chunk.count == unique.count ? nil : Set(chunk)
      var reply: [(name: String, document: Document?)] = []
      reply.reserveCapacity(chunk.count)
      var lastReadTime: Timestamp?
      for response in elements {
        lastReadTime = response.readTime ?? lastReadTime
        let (name, document): (String, Document?)
        switch response.result {
        case .found(let doc): (name, document) = (doc.name, doc)
        case .missing(let missing): (name, document) = (missing, nil)
        case .transaction: continue
        }
        guard let index = found.index(forKey: name), askedHere?.contains(name) ?? true else {
          throw Self.replyNameRefusal(name, asked: askedHere ?? Set(unique))
        }
        found.values[index] = (document, response.readTime)
        reply.append((name, document))
      }
      // Read times only grow along a reply, and a document read earlier in it did not
      // change up to a later one: the last holds for all of this reply's (not another's).
      if learns { localStore.didRead(reply, readTime: lastReadTime) }
    }
    return try references.map { ref in
      guard let answer = found[ref.name], let (doc, readTime) = answer else {
        throw FirestoreError(.internal, "batchGet reply has no result for \(ref.path)")
      }
      return DocumentSnapshot(reference: ref, document: doc, readTime: readTime)
    }
  }

  /// Refuses a read reply about a document that was not asked for: taking it for one that
  /// was would hand out, and cache, another document's data.
  static func checkReplyNames(_ name: String, asked: Set<String>) throws {
    guard !asked.contains(name) else { return }
    throw replyNameRefusal(name, asked: asked)
  }

  /// The error for a read reply naming `name`, which is not among `asked`.
  static func replyNameRefusal(_ name: String, asked: Set<String>) -> FirestoreError {
    let wanted = asked.count == 1 ? asked.first! : "one of the \(asked.count) documents asked for"
    return FirestoreError(.internal, "the server's reply names document \(name), not \(wanted)")
  }

  /// The top-level collections of the database, sorted by ID.
  ///
  /// - Parameter readTime: list them as they were at this time (within Firestore's
  ///   retention window); now when `nil`.
  public func listCollections(readTime: Timestamp? = nil) async throws -> [CollectionReference] {
    try await collectionIDs(under: .root, readTime: readTime).map { collection($0) }
  }

  /// Pages through `:listCollectionIds` under a document (or the root), at `readTime`.
  func collectionIDs(under parent: ResourcePath, readTime: Timestamp?) async throws -> [String] {
    var ids: [String] = []
    var token: String?
    repeat {
      var body: [(String, JSONValue)] = [("pageSize", .number("300"))]
      if let token { body.append(("pageToken", .string(token))) }
      if let readTime { ReadConsistency.readTime(readTime).append(to: &body) }
      let reply = try await rest.unary(.init(.listCollectionIds(parent: parent), body: .object(body)))
      let page = try decode("listCollectionIds reply") { try ListCollectionIDsResponse(json: reply) }
      ids += page.collectionIDs
      token = page.nextPageToken.flatMap { $0.isEmpty || page.collectionIDs.isEmpty ? nil : $0 }
    } while token != nil
    return ids
  }
}

extension DocumentReference {
  /// Reads the document from the server, falling back to the local cache when the server
  /// cannot be reached: ``getDocument(source:)`` with ``FirestoreSource/default``.
  /// A missing document is not an error: the snapshot's `exists` is `false`.
  ///
  /// ```swift
  /// let snapshot = try await db.document("users/ada").getDocument()
  /// ```
  public func getDocument() async throws -> DocumentSnapshot {
    try await getDocument(source: .default)
  }

  /// The document as the local cache has it (``FirestoreSource/cache``).
  ///
  /// - Throws: `unavailable` when the cache does not hold it.
  func cacheOnlySnapshot() throws -> DocumentSnapshot {
    let ref = try validated()
    try firestore.checkUsable()
    guard let snapshot = ref.cachedSnapshot() else {
      throw FirestoreError(.unavailable, "document \(ref.path) is not in the local cache (read with source .cache)")
    }
    return snapshot
  }

  /// Reads the document from where `source` says.
  ///
  /// ```swift
  /// // The screen fills from the cache at once (it survives restarts with a persistent
  /// // cache), then the server's version replaces it.
  /// if let cached = try? await ref.getDocument(source: .cache) { show(cached) }
  /// show(try await ref.getDocument(source: .server))
  /// ```
  ///
  /// - Parameter source: ``FirestoreSource/server`` reads the server only;
  ///   ``FirestoreSource/cache`` never touches the network and fails with `unavailable`
  ///   when the cache knows nothing of the document (one this client deleted, or a read or
  ///   listener found missing, reads as a snapshot that does not exist);
  ///   ``FirestoreSource/default`` reads the server and, when it is unreachable
  ///   (`unavailable` or `deadlineExceeded`), the cache, rethrowing the server's error if
  ///   the cache knows nothing of the document. Snapshots from the cache have
  ///   ``SnapshotMetadata/isFromCache`` set and show this client's pending writes.
  public func getDocument(source: FirestoreSource) async throws -> DocumentSnapshot {
    let ref = try validated()
    switch source {
    case .server:
      try firestore.checkServerReachable("the read of \(ref.path)")
      return try await ref.serverSnapshot()
    case .cache:
      return try ref.cacheOnlySnapshot()
    case .default:
      // With the network disabled, the cache answers at once, as in the Apple SDK.
      if firestore.network.mode == .disabled {
        try firestore.checkUsable()
        guard let snapshot = ref.cachedSnapshot() else {
          throw FirestoreError(
            .unavailable, "document \(ref.path) is not in the local cache, and the network is disabled (Firestore.disableNetwork())")
        }
        return snapshot
      }
      do {
        return try await ref.serverSnapshot()
      } catch let error as FirestoreError where error.meansOffline {
        guard let snapshot = ref.cachedSnapshot() else { throw error }
        return snapshot
      }
    }
  }

  /// The server's version of the document; the cache learns it.
  private func serverSnapshot() async throws -> DocumentSnapshot {
    var document: Document?
    do {
      document = try await firestore.rest.unary(
        .init(.get(resourcePath)), Document.init(jsonBytes:))
    } catch let error as FirestoreError where error.serverStatus == "NOT_FOUND" {
      document = nil
    }
    if let document, document.name != name { try Firestore.checkReplyNames(document.name, asked: [name]) }
    // A 404 says no read time: the cache keeps the document as missing whatever it held.
    firestore.localStore.didRead([(name, document)], readTime: nil)
    // This client's writes the server has not applied yet show, as in every Apple SDK read.
    if let local = firestore.localStore.withPendingWrites(.document(name: name, path: path), serverResults: document.map { [$0] } ?? []) {
      return DocumentSnapshot(
        reference: self, document: local.documents.first, readTime: nil,
        metadata: SnapshotMetadata(isFromCache: false, hasPendingWrites: !local.pending.isEmpty))
    }
    return DocumentSnapshot(reference: self, document: document, readTime: nil)
  }

  /// The cached version with pending writes applied, or `nil` when the cache has none.
  private func cachedSnapshot() -> DocumentSnapshot? {
    firestore.writePipeline.followCurrentUser()
    guard let (document, pending) = firestore.localStore.document(name) else { return nil }
    return DocumentSnapshot(
      reference: self, document: document, readTime: nil, metadata: SnapshotMetadata(isFromCache: true, hasPendingWrites: pending))
  }

  /// Reads the document as it was at `readTime` (within Firestore's retention window).
  public func getDocument(readTime: Timestamp) async throws -> DocumentSnapshot {
    let snapshots = try await firestore.batchGet([self], fieldMask: nil, consistency: .readTime(readTime))
    return snapshots[0]
  }

  /// The subcollections of this document, sorted by ID (the document itself need not exist).
  ///
  /// - Parameter readTime: list them as they were at this time (within Firestore's
  ///   retention window); now when `nil`.
  public func listCollections(readTime: Timestamp? = nil) async throws -> [CollectionReference] {
    let ref = try validated()
    return try await firestore.collectionIDs(under: ref.resourcePath, readTime: readTime).map { ref.collection($0) }
  }
}
