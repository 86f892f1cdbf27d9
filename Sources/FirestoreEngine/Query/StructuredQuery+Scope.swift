import FirestoreWire

extension StructuredQuery {
  /// Whether the document at `path` is in a collection that `selectors` (a query's `from`)
  /// read below `parent`: both paths are relative to the database's documents root, `""`
  /// for the root itself.
  ///
  /// A selector reads the collection with its ID directly below `parent`, or with
  /// `allDescendants` every collection with that ID (any ID when it is empty) at any depth
  /// below it. No selectors at all read `parent`'s direct collections, whatever their IDs.
  /// The client's cache and the mock server both answer queries by this rule.
  public static func reads(_ selectors: [CollectionSelector], documentAt path: String, under parent: String) -> Bool {
    let segments = path.slashSegments
    guard segments.count >= 2, segments.count.isMultiple(of: 2) else { return false }
    let collectionID = segments[segments.count - 2]
    let documentParent = segments.dropLast(2).joined(separator: "/")
    guard !selectors.isEmpty else { return documentParent == parent }
    return selectors.contains { selector in
      guard selector.collectionID.isEmpty || selector.collectionID == collectionID else { return false }
      guard selector.allDescendants else { return documentParent == parent }
      return parent.isEmpty || path.hasBytePrefix(parent + "/")
    }
  }
}
