import FirestoreEngine
import FirestoreWire

/// The documents of one project's database, by path relative to `…/documents`.
struct MockDatabase: Sendable {
  /// `projects/{p}/databases/{d}/documents`.
  let documentsRoot: String
  var histories: [String: DocumentHistory] = [:]

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
      histories[path, default: DocumentHistory()].append(next, pruningBefore: horizon)
    }
  }

  /// Paths of documents that exist at `time` (now when `nil`), sorted in Firestore's key order.
  func existingPaths(at time: Timestamp? = nil) -> [String] {
    histories.compactMap { path, history in
      (time.map { history.at($0) } ?? history.current) != nil ? path : nil
    }.sorted(by: MockDatabase.keyOrder)
  }

  /// Firestore's document-key order: segment by segment (numeric `__id__` IDs first).
  static func keyOrder(_ a: String, _ b: String) -> Bool {
    ValueOrdering.compareResourceNames(a, b) < 0
  }
}
