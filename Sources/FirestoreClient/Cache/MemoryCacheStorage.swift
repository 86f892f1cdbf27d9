import FirestoreWire

/// Entries in a dictionary, evicted least recently used first.
final class MemoryCacheStorage: CacheStorage {
  /// What is held at a path, with its eviction bookkeeping.
  private struct Slot {
    var entry: CacheEntry
    var size: Int
    var lastUse: UInt64
  }

  let sizeLimit: Int
  private(set) var byteCount = 0
  private var entries: [String: Slot] = [:]
  /// Paths of documents (not missing ones) by collection path, so that a collection's query
  /// reads only its own.
  private var byCollection: [String: Set<String>] = [:]
  private var clock: UInt64 = 0
  private var namedQueries: [String: NamedQuery] = [:]
  private var bundles: [String: Timestamp] = [:]

  init(sizeLimit: Int) { self.sizeLimit = sizeLimit }

  private func tick() -> UInt64 {
    clock += 1
    return clock
  }

  func entry(at path: String) -> CacheEntry? {
    guard let index = entries.index(forKey: path) else { return nil }
    return use(at: index, now: tick())
  }

  /// The entry at `index`, marked as used at `now`: one hash lookup for the caller's find,
  /// none here.
  private func use(at index: [String: Slot].Index, now: UInt64) -> CacheEntry {
    entries.values[index].lastUse = now
    return entries.values[index].entry
  }

  func version(at path: String) -> Timestamp? { entries[path]?.entry.version }

  /// Nothing to release: the documents are only in memory.
  func close() {}

  func documents(parent: String, collectionID: String, allDescendants: Bool) -> [Document] {
    let collections: [String]
    if allDescendants {
      collections = byCollection.keys.filter { collection in
        collection.slashSegments.last == collectionID && (parent.isEmpty || collection.hasBytePrefix(parent + "/"))
      }
    } else {
      collections = [parent.isEmpty ? collectionID : parent + "/" + collectionID]
    }
    var result: [Document] = []
    let now = tick()
    for collection in collections {
      for path in byCollection[collection] ?? [] {
        guard let index = entries.index(forKey: path), let document = use(at: index, now: now).document else { continue }
        result.append(document)
      }
    }
    return result
  }

  private func remove(_ path: String) {
    guard let old = entries.removeValue(forKey: path) else { return }
    byteCount -= old.size
    if old.entry.document != nil { leaveCollection(path) }
  }

  private func leaveCollection(_ path: String) {
    let collection = CachePath.collection(of: path)
    byCollection[collection]?.remove(path)
    if byCollection[collection]?.isEmpty == true { byCollection[collection] = nil }
  }

  func apply(_ changes: [(path: String, entry: CacheEntry?)], isPinned: (String) -> Bool) {
    for (path, entry) in changes {
      guard let entry else {
        remove(path)
        continue
      }
      let size = entry.size(path: path)
      let old = entries.updateValue(Slot(entry: entry, size: size, lastUse: tick()), forKey: path)
      byteCount += size - (old?.size ?? 0)
      // A document already held keeps its place in its collection; a missing one has none.
      switch (old?.entry.document != nil, entry.document != nil) {
      case (false, true): byCollection[CachePath.collection(of: path), default: []].insert(path)
      case (true, false): leaveCollection(path)
      default: break
      }
    }
    guard byteCount > sizeLimit else { return }
    for (path, _) in entries.sorted(by: { $0.value.lastUse < $1.value.lastUse }) {
      guard byteCount > evictionTarget else { break }
      if !isPinned(path) { remove(path) }
    }
  }

  /// Every entry's path, for eager garbage collection.
  var paths: [String] { Array(entries.keys) }

  func namedQuery(_ name: String) -> NamedQuery? { namedQueries[name] }

  func bundleCreateTime(_ id: String) -> Timestamp? { bundles[id] }

  func saveBundle(_ metadata: BundleMetadata, queries: [NamedQuery]) {
    bundles[metadata.id] = metadata.createTime
    for query in queries { namedQueries[query.name] = query }
  }
}
