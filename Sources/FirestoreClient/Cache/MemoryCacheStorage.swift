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
  private var clock: UInt64 = 0

  init(sizeLimit: Int) { self.sizeLimit = sizeLimit }

  private func tick() -> UInt64 {
    clock += 1
    return clock
  }

  func document(at path: String) -> Document? {
    guard entries[path] != nil else { return nil }
    entries[path]!.lastUse = tick()
    return entries[path]!.document
  }

  func documents(parent: String, collectionID: String, allDescendants: Bool) -> [Document] {
    var result: [Document] = []
    let now = tick()
    for (path, entry) in entries where CachePath.matches(path, parent: parent, collectionID: collectionID, allDescendants: allDescendants) {
      entries[path]!.lastUse = now
      result.append(entry.document)
    }
    return result
  }

  func apply(_ changes: [(path: String, document: Document?)]) {
    for (path, document) in changes {
      if let old = entries.removeValue(forKey: path) { byteCount -= old.size }
      if let document {
        let size = CachePath.size(of: document, path: path)
        entries[path] = Entry(document: document, size: size, lastUse: tick())
        byteCount += size
      }
    }
    guard byteCount > sizeLimit else { return }
    for (path, entry) in entries.sorted(by: { $0.value.lastUse < $1.value.lastUse }) {
      guard byteCount > sizeLimit else { break }
      entries[path] = nil
      byteCount -= entry.size
    }
  }
}
