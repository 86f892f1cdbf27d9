import FirestoreEngine
import FirestoreWire

extension Firestore {
  /// Descendants fetched per query: the most deletes a recursive delete has queued
  /// before it asks for more.
  static let recursiveDeletePageSize = 5000
  /// Queued deletes below which the next page is fetched, so that the writer never idles
  /// while a query runs.
  static let recursiveDeleteLowWater = 1000
  /// The smallest document ID Firestore orders (numeric IDs `__id<n>__` sort first), for
  /// the bounds of a collection's subtree.
  static let minimumDocumentID = "__id-9223372036854775808__"

  /// Deletes a document and every document below it, at any depth, through a bulk writer,
  /// as the server SDKs' `recursiveDelete` does: the descendants are found by queries over
  /// all collections below the document (so also those under documents that do not
  /// exist), deleted, and the document itself last.
  ///
  /// ```swift
  /// try await db.recursiveDelete(db.document("users/ada"))
  /// ```
  ///
  /// - Parameters:
  ///   - document: the document to delete, with everything below it.
  ///   - bulkWriter: the writer to delete through (its options and
  ///     ``BulkWriter/onWriteResult(_:)`` / ``BulkWriter/onWriteError(_:)`` apply); by
  ///     default a new one with default options, closed at the end.
  /// A query reply that breaks after some names is asked again from the last one read.
  ///
  /// - Throws: `invalidArgument` for an invalid reference or a writer of another instance,
  ///   and `failedPrecondition` for a closed writer, before anything is deleted; the
  ///   query's error when finding descendants fails, and `internal` when the server lists
  ///   a name outside what is deleted or one it listed before (the deletes already queued
  ///   still finish, the document itself stays); when deletes failed, an error with the
  ///   last failure's code saying how many.
  public func recursiveDelete(_ document: DocumentReference, bulkWriter: BulkWriter? = nil) async throws {
    let document = try document.validated()
    try await recursiveDelete(
      parent: document.resourcePath, collection: nil, then: document, reference: document.firestore, bulkWriter: bulkWriter)
  }

  /// Deletes every document of a collection and every document below them, at any
  /// depth, through a bulk writer (see ``recursiveDelete(_:bulkWriter:)-(DocumentReference,_)``).
  ///
  /// ```swift
  /// try await db.recursiveDelete(db.collection("users/ada/favorites"), bulkWriter: db.bulkWriter(options: .unlimited))
  /// ```
  public func recursiveDelete(_ collection: CollectionReference, bulkWriter: BulkWriter? = nil) async throws {
    let collection = try collection.validated()
    try await recursiveDelete(
      parent: collection.resourcePath.parent ?? .root, collection: collection.collectionID, then: nil,
      reference: collection.firestore, bulkWriter: bulkWriter)
  }

  /// Deletes everything below `parent` (only under its collection `collection`, when
  /// given), then `last`.
  private func recursiveDelete(
    parent: ResourcePath, collection: String?, then last: DocumentReference?, reference: Firestore, bulkWriter: BulkWriter?
  ) async throws {
    guard reference === self else {
      throw FirestoreError.invalidArgument("recursiveDelete: the reference belongs to another Firestore instance")
    }
    if let bulkWriter, bulkWriter.firestore !== self {
      throw FirestoreError.invalidArgument("recursiveDelete: the BulkWriter belongs to another Firestore instance")
    }
    if let bulkWriter, bulkWriter.isClosed {
      throw FirestoreError(.failedPrecondition, "recursiveDelete: the BulkWriter was closed; pass an open one")
    }
    let writer = bulkWriter ?? self.bulkWriter()
    var pending: [BulkWriteOperation] = []
    var failures = 0
    var lastFailure: FirestoreError?
    func settle(downTo count: Int) async {
      while pending.count > count {
        do {
          _ = try await pending.removeFirst().result()
        } catch {
          failures += 1
          lastFailure = error
        }
      }
    }
    var queryError: (any Error)?
    var after: String?
    // Every name the server returns must lie in the subtree, past the last one: a server
    // that strays out of it, or ignores the cursor, deletes nothing it should not and
    // cannot make this loop forever.
    let subtree = parent.name(below: documentsRoot) + (collection.map { "/\($0)/" } ?? "/")
    do {
      while true {
        var found = 0
        var stray: String?
        let call = descendantsQuery(parent: parent, collection: collection, after: after)
        do {
          // Read as the deletes are queued: a page is never held whole.
          let (first, reader) = try await rest.streamArray(call, RunQueryResponse.init(jsonBytes:))
          var next = first
          while let response = next {
            if let document = response.document {
              guard document.name.hasPrefix(subtree), after.map({ ValueOrdering.compareResourceNames(document.name, $0) > 0 }) ?? true
              else {
                stray = document.name
                break
              }
              pending.append(try writer.deleteDocument(try self.reference(forName: document.name)))
              after = document.name
              found += 1
            }
            next = try await reader.next()
          }
        } catch let error as FirestoreError
          where found > 0 && rest.settings.retryPolicy.resumesBrokenReply(after: error)
        {
          // The reply broke after some names: ask again from the last one. Each such retry
          // has moved past at least one name, so they end.
          continue
        }
        if let stray {
          throw FirestoreError(.internal, "recursiveDelete: the server listed \(stray) out of order or outside \(subtree)")
        }
        if found < Self.recursiveDeletePageSize { break }
        await settle(downTo: Self.recursiveDeleteLowWater)
      }
      if let last { pending.append(try writer.deleteDocument(last)) }
    } catch {
      queryError = error
    }
    if bulkWriter == nil { await writer.close() }
    await settle(downTo: 0)
    if let queryError { throw queryError }
    if let lastFailure {
      throw lastFailure.with {
        $0.message = "recursiveDelete: \(failures) delete\(failures == 1 ? "" : "s") failed; the last: \(lastFailure.message)"
      }
    }
  }

  /// A page of the documents below `parent` (in its collection `collection` only, when
  /// given), names only, in name order, after `after`.
  private func descendantsQuery(parent: ResourcePath, collection: String?, after: String?) -> RESTClient.Call {
    var query = StructuredQuery(
      select: [FieldPath.documentID().canonicalString], from: [.init(collectionID: "", allDescendants: true)],
      orderBy: [.init(fieldPath: FieldPath.documentID().canonicalString, descending: false)],
      limit: Int32(Self.recursiveDeletePageSize))
    if let collection {
      // Every name below the collection sorts from its smallest document ID up to, not
      // including, that ID in the next possible collection ID (the ID with a NUL after it).
      let base = parent.name(below: documentsRoot)
      let lower = "\(base)/\(collection)/\(Self.minimumDocumentID)"
      let upper = "\(base)/\(collection)\u{0}/\(Self.minimumDocumentID)"
      let key = FieldPath.documentID().canonicalString
      query.filter = .composite(
        op: .and,
        filters: [
          .field(path: key, op: .greaterThanOrEqual, value: .reference(lower)), .field(path: key, op: .lessThan, value: .reference(upper)),
        ])
    }
    if let after { query.startAt = .init(values: [.reference(after)], before: false) }
    return RESTClient.Call(.runQuery(parent: parent), body: RunQueryRequest(structuredQuery: query).json)
  }
}
