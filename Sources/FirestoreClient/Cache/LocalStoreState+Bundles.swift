import FirestoreWire

extension LocalStoreState {
  /// Applies a bundle's documents and saves its named queries, unless a bundle with the
  /// same ID and a create time as late was loaded before; returns whether it applied them.
  ///
  /// A document replaces the cached one unless that one is newer (a later update time); a
  /// document the bundle reports missing is kept as missing unless the cached one changed
  /// after the bundle read it. Listeners that can show the documents are refreshed.
  mutating func loadBundle(
    _ metadata: BundleMetadata, documents: [(name: String, document: Document?, readTime: Timestamp)], queries: [NamedQuery]
  ) -> Bool {
    guard storage != nil, !hasLoadedBundle(metadata) else { return false }
    // In runs that share a read time (most bundles have one): a missing document is kept
    // as missing as of its run's.
    var start = 0
    while start < documents.count {
      let readTime = documents[start].readTime
      var end = start + 1
      while end < documents.count, documents[end].readTime == readTime { end += 1 }
      store(documents[start..<end].map { (name: $0.name, document: $0.document) }, removedAsOf: readTime)
      start = end
    }
    withStorage(()) { storage throws(CacheStorageError) in try storage.saveBundle(metadata, queries: queries) }
    refreshViews(showing: Set(documents.map(\.name)))
    return true
  }

  /// Whether a bundle with the ID of `metadata` and a create time as late was loaded before.
  mutating func hasLoadedBundle(_ metadata: BundleMetadata) -> Bool {
    let loadedBefore = withStorage(nil) { storage throws(CacheStorageError) in try storage.bundleCreateTime(metadata.id) }
    return loadedBefore.map { $0 >= metadata.createTime } ?? false
  }

  /// The named query a loaded bundle saved under `name`.
  mutating func namedQuery(_ name: String) -> NamedQuery? {
    withStorage(nil) { storage throws(CacheStorageError) in try storage.namedQuery(name) }
  }
}
