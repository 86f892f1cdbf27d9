import FirestoreWire

/// The documents a query target can hold by their names alone: those of its collection
/// directly under its parent, or, for a collection group, of every collection with that ID
/// below it (as the SDKs' views check a document's path before its fields).
struct QueryScope: Sendable {
  /// The parent's full resource name followed by `/`.
  let prefix: String
  let collectionID: String
  let allDescendants: Bool

  init(parent: String, collection: StructuredQuery.CollectionSelector) {
    prefix = parent + "/"
    collectionID = collection.collectionID
    allDescendants = collection.allDescendants
  }

  /// Whether the document named `name` (a full resource name) lies in the scope.
  func contains(_ name: String) -> Bool {
    guard name.hasPrefix(prefix) else { return false }
    let segments = name.utf8.dropFirst(prefix.utf8.count).split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
    guard segments.count >= 2, segments.count % 2 == 0 else { return false }
    if !allDescendants && segments.count != 2 { return false }
    // An empty collection ID (any collection) comes only with all descendants.
    return collectionID.isEmpty || segments[segments.count - 2].elementsEqual(collectionID.utf8)
  }
}
