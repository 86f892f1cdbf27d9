import FirestoreWire

/// One document's change between two snapshots of a target, with Firebase's index rules.
///
/// Indexes describe applying the changes in order to the old document list: a removal's
/// `oldIndex` is the position in the list after the earlier changes, an addition's or
/// modification's `newIndex` the position it is inserted at. `-1` means "not in that list"
/// (`oldIndex` of an addition, `newIndex` of a removal).
public struct WatchChange: Sendable, Equatable {
  /// The kind of change.
  public enum Kind: Sendable, Equatable {
    /// The document entered the view.
    case added
    /// The document stayed in the view and its `updateTime` changed.
    case modified
    /// The document left the view (deleted, no longer matching, or pushed out by the limit).
    case removed
  }

  /// The kind of change.
  public var kind: Kind
  /// The new document, or the last known one for a removal.
  public var document: Document
  /// The position before the change, or `-1` for an addition.
  public var oldIndex: Int
  /// The position after the change, or `-1` for a removal.
  public var newIndex: Int

  /// Creates a change.
  public init(kind: Kind, document: Document, oldIndex: Int, newIndex: Int) {
    self.kind = kind
    self.document = document
    self.oldIndex = oldIndex
    self.newIndex = newIndex
  }

  /// The changes that turn the sorted view `old` into the sorted view `new`, as the
  /// Firestore SDKs compute them.
  ///
  /// A document present in both is `.modified` only when its `updateTime` differs (or,
  /// lacking update times, its content does), so a re-sent identical document is no change.
  static func changes(from old: [Document], to new: [Document], ordering: DocumentOrdering) -> [WatchChange] {
    changes(from: old, to: new, ordering: ordering) { before, after in
      before.updateTime != after.updateTime || (after.updateTime == nil && before != after)
    }
  }

  /// The changes that turn the sorted view `old` into the sorted view `new`, where a
  /// document present in both is `.modified` when `isModified(before, after)` says so.
  public static func changes(
    from old: [Document], to new: [Document], ordering: DocumentOrdering, isModified: (Document, Document) -> Bool
  ) -> [WatchChange] {
    let oldByName = Dictionary(old.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
    let newByName = Set(new.map(\.name))
    var found: [(kind: Kind, document: Document)] = old.filter { !newByName.contains($0.name) }.map { (.removed, $0) }
    for doc in new {
      if let before = oldByName[doc.name] {
        if isModified(before, doc) { found.append((.modified, doc)) }
      } else {
        found.append((.added, doc))
      }
    }
    func rank(_ kind: Kind) -> Int {
      switch kind {
      case .removed: return 0
      case .added: return 1
      case .modified: return 2
      }
    }
    found.sort { a, b in
      rank(a.kind) != rank(b.kind) ? rank(a.kind) < rank(b.kind) : ordering.compare(a.document, b.document) < 0
    }
    // Replay the changes on the old list to get the SDKs' intermediate indexes.
    var tracker = old
    return found.map { change in
      var oldIndex = -1
      var newIndex = -1
      if change.kind != .added, let previous = oldByName[change.document.name] {
        // The comparison is total (names break ties), so a binary search finds the old entry.
        oldIndex = ordering.insertionIndex(of: previous, in: tracker)
        tracker.remove(at: oldIndex)
      }
      if change.kind != .removed {
        newIndex = ordering.insertionIndex(of: change.document, in: tracker)
        tracker.insert(change.document, at: newIndex)
      }
      return WatchChange(kind: change.kind, document: change.document, oldIndex: oldIndex, newIndex: newIndex)
    }
  }
}
