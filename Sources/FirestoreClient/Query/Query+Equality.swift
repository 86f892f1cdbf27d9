import FirestoreWire

/// Queries are equal, as in the Apple SDK, when they read the same documents in the same
/// order from the same instance: compared as sent (implicit orderings included), not by
/// how the builders were called. A query holding a builder misuse equals only itself.
extension Query: Hashable {
  public static func == (lhs: Query, rhs: Query) -> Bool {
    if lhs === rhs { return true }
    guard lhs.firestore === rhs.firestore, let a = try? lhs.lowered(), let b = try? rhs.lowered() else { return false }
    return a.parentPath == b.parentPath && a.reversesResults == b.reversesResults && a.structuredQuery == b.structuredQuery
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(firestore))
    hasher.combine(parentPath)
    hasher.combine(collectionID)
  }
}
