import FirestoreEngine
import FirestoreWire

extension LocalStoreState {
  // MARK: - Field indexes

  /// A scan creates an index only when it read at least this many documents, as in the
  /// Apple SDK: below it, a scan is cheap whatever the query.
  static let indexAutoCreationMinimumScan = 100
  /// What reading one document through an index costs relative to reading it in a scan
  /// (the index entry, then the document): the Apple SDK's measured 3.4. A scan that read
  /// more than this many documents per match would have been cheaper through an index.
  static let relativeIndexReadCost = 3.4

  /// After a query on the cache scanned `scanned`, creates the index the Apple SDK would
  /// create for it when auto creation is on and the scan read at least
  /// ``indexAutoCreationMinimumScan`` documents, more than ``relativeIndexReadCost`` per
  /// match (`results` counts the matches, unless a limit cut them).
  mutating func considerIndex(for query: ViewQuery, scanned: [Document], results: [Document]) {
    guard indexAutoCreation, scanned.count >= Self.indexAutoCreationMinimumScan,
      case .query(let structured, _, let collectionID, _) = query,
      let index = QueryIndexMatcher(structured)?.indexToCreate(collectionGroup: collectionID)
    else { return }
    var matched = results.count
    if structured.limit != nil || structured.offset != nil {
      var unlimited = structured
      unlimited.limit = nil
      unlimited.offset = nil
      matched = QueryEvaluator.evaluate(unlimited, over: scanned).count
    }
    guard Double(scanned.count) > Self.relativeIndexReadCost * Double(matched) else { return }
    withStorage(()) { storage throws(CacheStorageError) in
      // Read without the write lock: an index that is there already (which this query
      // could not use) costs no write.
      guard try !storage.fieldIndexes().contains(where: { $0.hasSameDefinition(as: index) }) else { return }
      _ = try storage.addFieldIndex(index)
    }
  }

  /// Removes every field index of the storage.
  mutating func deleteAllFieldIndexes() {
    withStorage(()) { storage throws(CacheStorageError) in try storage.deleteAllFieldIndexes() }
  }

  /// The storage's field indexes.
  mutating func fieldIndexes() -> [FieldIndex] {
    withStorage([]) { storage throws(CacheStorageError) in try storage.fieldIndexes() }
  }
}
