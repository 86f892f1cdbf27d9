import FirestoreWire
import Foundation

extension Firestore {
  /// A builder for a bundle with this ID (see ``BundleBuilder``).
  public func bundle(_ id: String) -> BundleBuilder { BundleBuilder(id: id) }

  /// Loads a bundle (built by ``BundleBuilder`` or another Firestore SDK) into the local
  /// cache: its documents, and its named queries for ``getQuery(named:)``. Reads from the
  /// cache then see them without a request.
  ///
  /// ```swift
  /// let progress = try await db.loadBundle(try Data(contentsOf: bundleURL))
  /// if let latest = await db.getQuery(named: "latest") {
  ///   let stories = try await latest.getDocuments(source: .cache)
  /// }
  /// ```
  ///
  /// A bundle whose ID was loaded before, from data read at the same time or later, is
  /// not applied again (its documents could be older than the cache's). A cached document
  /// that changed after the bundle read it is kept.
  ///
  /// - Returns: the final progress, in state ``LoadBundleTaskState/success``.
  /// - Throws: `invalidArgument`, applying nothing, for bytes that are not a well-formed
  ///   bundle of this database (the message names the problem and where);
  ///   `failedPrecondition` when this instance has no local cache
  ///   (``LocalCacheSettings/none``).
  public func loadBundle(_ bundle: Data) async throws -> LoadBundleTaskProgress {
    if let error = rest.configurationError { throw error }
    guard localStore.isCaching else {
      throw FirestoreError(.failedPrecondition, "loadBundle needs a local cache, and this Firestore was made with LocalCacheSettings.none")
    }
    let contents = try BundleContents.read(Array(bundle), documentsRoot: documentsRoot)
    _ = localStore.loadBundle(contents.metadata, documents: contents.documents, queries: contents.queries)
    let metadata = contents.metadata
    return LoadBundleTaskProgress(
      documentsLoaded: Int(metadata.totalDocuments), totalDocuments: Int(metadata.totalDocuments),
      bytesLoaded: Int64(metadata.totalBytes), totalBytes: Int64(metadata.totalBytes), state: .success)
  }

  /// Loads a bundle given as text (see ``loadBundle(_:)-(Data)``).
  public func loadBundle(_ bundle: String) async throws -> LoadBundleTaskProgress {
    try await loadBundle(Data(bundle.utf8))
  }

  /// Loads a bundle read from `stream` to its end (see ``loadBundle(_:)-(Data)``); the
  /// stream is opened if it is not open yet, and closed afterwards.
  ///
  /// - Throws: `invalidArgument` when the stream fails before its end, besides the errors
  ///   of the `Data` form.
  public func loadBundle(_ stream: InputStream) async throws -> LoadBundleTaskProgress {
    try await loadBundle(try Self.readAll(stream))
  }

  /// The bytes of `stream` up to its end.
  private static func readAll(_ stream: InputStream) throws(FirestoreError) -> Data {
    if stream.streamStatus == .notOpen { stream.open() }
    defer { stream.close() }
    var data = Data()
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      let count = stream.read(&chunk, maxLength: chunk.count)
      if count < 0 {
        throw .invalidArgument("the bundle stream failed: \(stream.streamError.map { "\($0)" } ?? "unknown error")")
      }
      if count == 0 { return data }
      data.append(contentsOf: chunk[0..<count])
    }
  }

  /// The query a loaded bundle saved under `name`, or `nil` when no loaded bundle has one.
  ///
  /// Run it with ``FirestoreSource/cache`` to read the bundle's results without a request;
  /// it is an ordinary query, so it may also run on the server or be listened to.
  public func getQuery(named name: String) async -> Query? {
    guard let named = localStore.namedQuery(name) else { return nil }
    return try? Query.fromBundle(named, firestore: self)
  }
}
