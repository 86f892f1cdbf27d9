import FirestoreWire

/// One stored state of a document: its fields and times, or its deletion.
struct DocumentVersion: Sendable {
  /// The fields; `nil` marks a deletion.
  var fields: [String: Value]?
  var createTime: Timestamp
  var updateTime: Timestamp
}

/// The history of one document path, oldest first, so reads at a past `readTime` work.
struct DocumentHistory: Sendable {
  private(set) var versions: [DocumentVersion] = []

  /// The state now, or `nil` when the document does not exist.
  var current: DocumentVersion? {
    guard let last = versions.last, last.fields != nil else { return nil }
    return last
  }

  /// The state as of `time`, or `nil` when it did not exist then.
  func at(_ time: Timestamp) -> DocumentVersion? {
    guard let version = versions.last(where: { $0.updateTime <= time }), version.fields != nil else { return nil }
    return version
  }

  /// Adds the newest version, then drops what ``prune(before:)`` drops.
  mutating func append(_ version: DocumentVersion, pruningBefore horizon: Timestamp) {
    versions.append(version)
    prune(before: horizon)
  }

  /// Drops versions older than `horizon` except the newest of them (still current then).
  mutating func prune(before horizon: Timestamp) {
    guard let keepFrom = versions.lastIndex(where: { $0.updateTime <= horizon }), keepFrom > 0 else { return }
    versions.removeFirst(keepFrom)
  }
}
