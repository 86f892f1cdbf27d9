import FirestoreEngine
import FirestoreWire

/// What a listener watches, in the terms the local store evaluates: one document, or a
/// (lowered) query over a collection or collection group.
enum ViewQuery: Sendable, Equatable {
  /// One document by its full resource name and its path below the database root.
  case document(name: String, path: String)
  /// A query: `parent` is the path below the database root (`""` for the root), and
  /// `structuredQuery` the lowered query (a `limit(toLast:)` already flipped, no offset).
  case query(StructuredQuery, parent: String, collectionID: String, allDescendants: Bool)

  /// Whether a document at `path` (below the database root) can be part of the results.
  func covers(path: String) -> Bool {
    switch self {
    case .document(_, let own): return own == path
    case .query(_, let parent, let collectionID, let allDescendants):
      let selector = StructuredQuery.CollectionSelector(collectionID: collectionID, allDescendants: allDescendants)
      return StructuredQuery.reads([selector], documentAt: path, under: parent)
    }
  }

  /// How results are ordered (by name for a document).
  var ordering: DocumentOrdering {
    switch self {
    case .document: return .byName
    case .query(let q, _, _, _): return DocumentOrdering(query: q)
    }
  }
}
