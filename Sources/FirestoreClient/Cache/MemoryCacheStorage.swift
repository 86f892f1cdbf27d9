import FirestoreWire

/// Documents in a dictionary, evicted least recently used first.
final class MemoryCacheStorage: CacheStorage {
  private struct Entry {
    var document: Document
    var size: Int
    var lastUse: UInt64
  }

  let sizeLimit: Int
  private(set) var byteCount = 0
  private var entries: [String: Entry] = [:]
  /// Document paths by collection path, so that a collection's query reads only its own.
  private var byCollection: [String: Set<String>] = [:]
  private var clock: UInt64 = 0
  private var namedQueries: [String: NamedQuery] = [:]
  private var bundles: [String: Timestamp] = [:]

  init(sizeLimit: Int) { self.sizeLimit = sizeLimit }

  private func tick() -> UInt64 {
    clock += 1
    return clock
  }

  func document(at path: String) -> Document? {
    guard let index = entries.index(forKey: path) else { return nil }
    return use(at: index, now: tick())
  }

  /// The document at `index`, marked as used at `now`: one hash lookup for the caller's
  /// find, none here.
  private func use(at index: [String: Entry].Index, now: UInt64) -> Document {
    entries.values[index].lastUse = now
    return entries.values[index].document
  }

  func updateTime(at path: String) -> Timestamp? { entries[path]?.document.updateTime }

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
        guard let index = entries.index(forKey: path) else { continue }
        result.append(use(at: index, now: now))
      }
    }
    return result
  }

  private func remove(_ path: String) {
    guard let old = entries.removeValue(forKey: path) else { return }
    byteCount -= old.size
    let collection = CachePath.collection(of: path)
    byCollection[collection]?.remove(path)
    if byCollection[collection]?.isEmpty == true { byCollection[collection] = nil }
  }

  func apply(_ changes: [(path: String, document: Document?)], isPinned: (String) -> Bool) {
    for (path, document) in changes {
      guard let document else {
        remove(path)
        continue
      }
      let size = CachePath.size(of: document, path: path)
      let entry = Entry(document: document, size: size, lastUse: tick())
      // A document already held keeps its place in its collection.
      if let old = entries.updateValue(entry, forKey: path) {
        byteCount -= old.size
      } else {
        byCollection[CachePath.collection(of: path), default: []].insert(path)
      }
      byteCount += size
    }
    guard byteCount > sizeLimit else { return }
    for (path, _) in entries.sorted(by: { $0.value.lastUse < $1.value.lastUse }) {
      guard byteCount > evictionTarget else { break }
      if !isPinned(path) { remove(path) }
    }
  }

  /// Every cached document's path, for eager garbage collection.
  var paths: [String] { Array(entries.keys) }

  func namedQuery(_ name: String) -> NamedQuery? { namedQueries[name] }

  func bundleCreateTime(_ id: String) -> Timestamp? { bundles[id] }

  func saveBundle(_ metadata: BundleMetadata, queries: [NamedQuery]) {
    bundles[metadata.id] = metadata.createTime
    for query in queries { namedQueries[query.name] = query }
  }
}
