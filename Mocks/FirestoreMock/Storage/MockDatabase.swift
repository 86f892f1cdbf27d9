import FirestoreEngine
import FirestoreWire

/// The documents of one project's database, by path relative to `…/documents`.
struct MockDatabase: Sendable {
  /// `projects/{p}/databases/{d}/documents`.
  let documentsRoot: String
  /// Every path ever written (deleted documents keep their history for `readTime` reads).
  private(set) var histories: [String: DocumentHistory] = [:]
  /// The paths of ``histories`` in key order, except those in `unorderedPaths`.
  private var orderedPaths: [String] = []
  /// Paths added since ``pathsInKeyOrder()`` last ran. Ordering them when read, not
  /// when written, keeps a write O(1) and a read after n new writes O(n log n) once.
  private var unorderedPaths: [String] = []

  init(documentsRoot: String) { self.documentsRoot = documentsRoot }

  /// The REST document for a path as of `time` (now when `nil`).
  func document(_ path: String, at time: Timestamp? = nil) -> Document? {
    guard let history = histories[path] else { return nil }
    guard let version = time.map({ history.at($0) }) ?? history.current, let fields = version.fields else { return nil }
    return Document(name: documentsRoot + "/" + path, fields: fields, createTime: version.createTime, updateTime: version.updateTime)
  }

  /// Stores the outcome of a commit at `time`: each path's new version, or `nil` for a
  /// deletion. A write that changes nothing keeps the document's update time, as Firestore
  /// does; deleting a missing document records nothing. Versions older than `horizon` are
  /// dropped (``DocumentHistory/prune(before:)``).
  ///
  /// Each history is changed in place, so a commit costs what its writes cost.
  mutating func apply(_ staged: [String: DocumentVersion?], at time: Timestamp, pruningBefore horizon: Timestamp) {
    for (path, version) in staged {
      let current = histories[path]?.current
      let next: DocumentVersion
      if let version {
        if let current, current.fields == version.fields { continue }
        next = version
      } else {
        guard current != nil else { continue }
        next = DocumentVersion(fields: nil, createTime: time, updateTime: time)
      }
      if histories[path] == nil { unorderedPaths.append(path) }
      histories[path, default: DocumentHistory()].append(next, pruningBefore: horizon)
    }
  }

  /// Every path of ``histories``, in Firestore's key order. Candidates read in this order
  /// reach the query engine sorted, so its sort by key (always the last ordering) is linear.
  mutating func pathsInKeyOrder() -> [String] {
    guard !unorderedPaths.isEmpty else { return orderedPaths }
    if unorderedPaths.count < orderedPaths.count / 64 {
      // A few new paths among many, as between two queries of a shared database: a binary
      // search each, where merging would compare every stored path again.
      for path in unorderedPaths {
        var low = 0
        var high = orderedPaths.count
        while low < high {
          let middle = (low + high) / 2
          if Self.keyOrder(path, orderedPaths[middle]) { high = middle } else { low = middle + 1 }
        }
        orderedPaths.insert(path, at: low)
      }
    } else {
      // Two sorted runs: the sort merges them in linear time.
      unorderedPaths.sort(by: Self.keyOrder)
      orderedPaths += unorderedPaths
      orderedPaths.sort(by: Self.keyOrder)
    }
    unorderedPaths = []
    return orderedPaths
  }

  /// Paths of documents that exist at `time` (now when `nil`), sorted in Firestore's key order.
  mutating func existingPaths(at time: Timestamp? = nil) -> [String] {
    pathsInKeyOrder().filter { path in
      guard let history = histories[path] else { return false }
      return (time.map { history.at($0) } ?? history.current) != nil
    }
  }

  /// Firestore's document-key order: segment by segment (numeric `__id__` IDs first).
  static func keyOrder(_ a: String, _ b: String) -> Bool {
    ValueOrdering.compareResourceNames(a, b) < 0
  }
}
