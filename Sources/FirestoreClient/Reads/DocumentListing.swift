import FirestoreWire

/// The documents of a collection, page by page, as references: `listDocuments`.
///
/// Pages are fetched as the sequence is iterated, never ahead. With `showMissing`, the
/// listing also includes "missing" documents: locations that hold no document but have
/// subcollections (useful for deleting a tree).
///
/// ```swift
/// for try await ref in db.collection("users").listDocuments(pageSize: 100) {
///   print(ref.path)
/// }
/// ```
public struct DocumentListing: AsyncSequence, Sendable {
  public typealias Element = DocumentReference

  let collection: CollectionReference
  let pageSize: Int
  let showMissing: Bool
  let readTime: Timestamp?

  /// Iterates the listing, requesting the next page when the current one runs out.
  public struct AsyncIterator: AsyncIteratorProtocol {
    let listing: DocumentListing
    var buffer: [DocumentReference] = []
    var token: String?
    var finished = false

    public mutating func next() async throws -> DocumentReference? {
      while buffer.isEmpty {
        if finished { return nil }
        try await fetchPage()
      }
      return buffer.removeFirst()
    }

    private mutating func fetchPage() async throws {
      let collection = try listing.collection.validated()
      if listing.pageSize <= 0 {
        throw FirestoreError(.invalidArgument, "listDocuments pageSize must be positive, got \(listing.pageSize)")
      }
      var query: [(String, String)] = [("pageSize", String(listing.pageSize))]
      if listing.showMissing { query.append(("showMissing", "true")) }
      // Only names are needed; a mask keeps field data off the wire where the server honours it.
      query.append(("mask.fieldPaths", FieldPath.documentID().canonicalString))
      if let token { query.append(("pageToken", token)) }
      if let readTime = listing.readTime {
        // By its fields: the emulator refuses RFC 3339 text for a timestamp in a URL.
        query += [("readTime.seconds", String(readTime.seconds)), ("readTime.nanos", String(readTime.nanoseconds))]
      }
      let firestore = collection.firestore
      let reply = try await firestore.rest.unary(
        .init(.list(parent: collection.resourcePath.parent ?? .root, collectionID: collection.collectionID, query: query)))
      let page = try firestore.decode("listDocuments page") { try ListDocumentsResponse(json: reply) }
      buffer = try page.documents.map { try firestore.reference(forName: $0.name) }
      token = page.nextPageToken.flatMap { $0.isEmpty ? nil : $0 }
      // A full page comes with a token even when nothing follows; an empty page ends it.
      if token == nil || page.documents.isEmpty { finished = true }
    }
  }

  public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(listing: self) }
}

extension CollectionReference {
  /// The references of this collection's documents, fetched page by page.
  ///
  /// - Parameters:
  ///   - pageSize: references per request.
  ///   - showMissing: also list locations with no document but with subcollections (as the
  ///     server SDKs' `listDocuments` does).
  ///   - readTime: list the documents as they were at this time (within Firestore's
  ///     retention window); now when `nil`.
  public func listDocuments(pageSize: Int = 300, showMissing: Bool = true, readTime: Timestamp? = nil) -> DocumentListing {
    DocumentListing(collection: self, pageSize: pageSize, showMissing: showMissing, readTime: readTime)
  }
}
