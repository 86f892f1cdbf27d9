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
    // Found on the UTF-8 bytes without splitting the path: this runs for every stored
    // document a query might read, and splitting allocated a string per segment.
    let slash = UInt8(ascii: "/")
    let bytes = path.utf8
    var slashes = 0
    var last: String.Index?
    var secondLast: String.Index?
    var i = bytes.startIndex
    while i != bytes.endIndex {
      if bytes[i] == slash {
        slashes += 1
        secondLast = last
        last = i
      }
      i = bytes.index(after: i)
    }
    // An even number of segments, at least two: one slash, three, ...
    guard let last, !slashes.isMultiple(of: 2) else { return false }
    let collectionID = path[(secondLast.map { bytes.index(after: $0) } ?? path.startIndex)..<last]
    let documentParent = path[..<(secondLast ?? path.startIndex)]
    guard !selectors.isEmpty else { return documentParent == parent }
    return selectors.contains { selector in
      guard selector.collectionID.isEmpty || selector.collectionID == collectionID else { return false }
      guard selector.allDescendants else { return documentParent == parent }
      return parent.isEmpty || (path.hasBytePrefix(parent) && bytes.dropFirst(parent.utf8.count).first == slash)
    }
  }
}
