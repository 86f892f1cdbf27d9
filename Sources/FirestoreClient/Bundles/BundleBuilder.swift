import FirestoreWire
import Foundation

/// Builds a Firestore bundle from documents and query results read on the server, so
/// that a server can publish pre-built results (on a CDN, in an app's resources) that
/// clients load into their cache with ``Firestore/loadBundle(_:)-(Data)`` and query without a
/// request (as the Node and Python server SDKs' bundle builders).
///
/// ```swift
/// var builder = db.bundle("latest-stories")
/// try builder.add(queryName: "latest", querySnapshot: try await latest.getDocuments())
/// try builder.add(document: try await db.document("config/app").getDocument())
/// try builder.build().write(to: URL(fileURLWithPath: "latest-stories.bundle"))
/// ```
///
/// A document added more than once (alone or in several queries' results) is kept once,
/// in its most recently read version.
public struct BundleBuilder: Sendable {
  /// The bundle's ID: a client skips a bundle with an ID it loaded before unless this one
  /// was read later.
  public let id: String
  private var queries: [NamedQuery] = []
  private var documentOrder: [String] = []
  private var documents: [String: (metadata: BundledDocumentMetadata, document: Document?)] = [:]
  private var latestReadTime = Timestamp(seconds: 0, nanoseconds: 0)

  init(id: String) {
    self.id = id
  }

  /// Adds a document as read from the server (existing or not), with the time it was
  /// read: read it with ``Firestore/getAll(_:fieldMask:readTime:)``, a query or a
  /// transaction (a plain ``DocumentReference/getDocument()`` reply carries no read time).
  ///
  /// - Throws: `invalidArgument` for a snapshot with no server read time (see above, or
  ///   from the cache, or with writes the server has not confirmed).
  public mutating func add(document snapshot: DocumentSnapshot) throws(FirestoreError) {
    let readTime = try Self.serverReadTime(snapshot.readTime, snapshot.metadata, "document \(snapshot.reference.path)")
    add(name: snapshot.reference.name, document: snapshot.document, readTime: readTime, query: nil)
  }

  /// Adds a query's results under a name that clients look it up by
  /// (``Firestore/getQuery(named:)``), with each of its documents.
  ///
  /// - Throws: `invalidArgument` for a name used before, a snapshot not read from the
  ///   server, a vector search's results, or a query clients cannot load from a bundle
  ///   (one with `select(_:)` or `offset(_:)`).
  public mutating func add(queryName: String, querySnapshot: QuerySnapshot) throws(FirestoreError) {
    if queryName.isEmpty { throw .invalidArgument("a bundle's query name must not be empty") }
    if queries.contains(where: { $0.name == queryName }) {
      throw .invalidArgument("the bundle already has a query named \"\(queryName)\"")
    }
    if querySnapshot.isVectorSearch {
      throw .invalidArgument("query \"\(queryName)\" is a vector search, which bundles cannot hold")
    }
    let readTime = try Self.serverReadTime(querySnapshot.readTime, querySnapshot.metadata, "query \"\(queryName)\"")
    queries.append(try querySnapshot.query.bundled(name: queryName, readTime: readTime))
    for document in querySnapshot.documents {
      add(name: document.reference.name, document: document.document, readTime: document.readTime ?? readTime, query: queryName)
    }
    latestReadTime = max(latestReadTime, readTime)
  }

  /// The bundle: its metadata, the named queries, then each document's metadata and data.
  public func build() -> Data {
    var body: [UInt8] = []
    for query in queries { body += BundleElement.namedQuery(query).lengthPrefixed }
    for name in documentOrder {
      guard let entry = documents[name] else { continue }
      body += BundleElement.documentMetadata(entry.metadata).lengthPrefixed
      if let document = entry.document { body += BundleElement.document(document).lengthPrefixed }
    }
    let metadata = BundleMetadata(
      id: id, createTime: latestReadTime, totalDocuments: UInt32(documentOrder.count), totalBytes: UInt64(body.count))
    return Data(BundleElement.metadata(metadata).lengthPrefixed + body)
  }

  private mutating func add(name: String, document: Document?, readTime: Timestamp, query: String?) {
    var queryNames = documents[name]?.metadata.queries ?? []
    if let query, !queryNames.contains(query) { queryNames.append(query) }
    if let held = documents[name], held.metadata.readTime > readTime {
      documents[name]?.metadata.queries = queryNames
    } else {
      if documents[name] == nil { documentOrder.append(name) }
      let metadata = BundledDocumentMetadata(name: name, readTime: readTime, exists: document != nil, queries: queryNames)
      documents[name] = (metadata, document)
    }
    latestReadTime = max(latestReadTime, readTime)
  }

  private static func serverReadTime(_ readTime: Timestamp?, _ metadata: SnapshotMetadata, _ what: String) throws(FirestoreError)
    -> Timestamp
  {
    guard let readTime, !metadata.isFromCache, !metadata.hasPendingWrites else {
      throw .invalidArgument(
        "\(what) has no server read time for a bundle (read it with getAll(_:) or a query; getDocument() replies carry none, cache reads have none)"
      )
    }
    return readTime
  }
}
