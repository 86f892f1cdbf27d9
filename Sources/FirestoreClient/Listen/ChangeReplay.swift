import FirestoreEngine
import FirestoreWire

/// Recomputes document-change indexes for a view delivered in a different order than the
/// listen target's (a `limit(toLast:)` query, which is listened to with its order flipped).
enum ChangeReplay {
  /// The changes turning `old` into `new` (both in delivery order), with the kinds taken
  /// from `kinds` (computed in the target's order): removals in old order, then additions,
  /// then modifications in new order, each index relative to the list after the earlier
  /// changes, as ``FirestoreWire/WatchChange`` describes.
  static func changes(
    from old: [Document], to new: [Document], kinds: [FirestoreEngine.WatchChange]
  ) -> [FirestoreEngine.WatchChange] {
    let rank = Dictionary(new.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { a, _ in a })
    let oldRank = Dictionary(old.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { a, _ in a })
    let removed = kinds.filter { $0.kind == .removed }.sorted { (oldRank[$0.document.name] ?? 0) < (oldRank[$1.document.name] ?? 0) }
    let added = kinds.filter { $0.kind == .added }.sorted { (rank[$0.document.name] ?? 0) < (rank[$1.document.name] ?? 0) }
    let modified = kinds.filter { $0.kind == .modified }.sorted { (rank[$0.document.name] ?? 0) < (rank[$1.document.name] ?? 0) }
    var tracker = old.map(\.name)
    func insertionIndex(_ name: String) -> Int {
      let own = rank[name] ?? 0
      return tracker.filter { (rank[$0] ?? Int.max) < own }.count
    }
    var result: [FirestoreEngine.WatchChange] = []
    for change in removed {
      let index = tracker.firstIndex(of: change.document.name) ?? -1
      if index >= 0 { tracker.remove(at: index) }
      result.append(.init(kind: .removed, document: change.document, oldIndex: index, newIndex: -1))
    }
    for change in added {
      let index = insertionIndex(change.document.name)
      tracker.insert(change.document.name, at: index)
      result.append(.init(kind: .added, document: change.document, oldIndex: -1, newIndex: index))
    }
    for change in modified {
      let oldIndex = tracker.firstIndex(of: change.document.name) ?? -1
      if oldIndex >= 0 { tracker.remove(at: oldIndex) }
      let newIndex = insertionIndex(change.document.name)
      tracker.insert(change.document.name, at: newIndex)
      result.append(.init(kind: .modified, document: change.document, oldIndex: oldIndex, newIndex: newIndex))
    }
    return result
  }
}
