import FirestoreEngine
import FirestoreWire

/// What `:partitionQuery` accepts and how the mock splits a collection group, following
/// production's documentation of `PartitionQueryRequest` (the emulator does not implement
/// the method). Production's messages for refused queries are not documented; these name
/// the rule that was broken.
enum PartitionRules {
  /// Refuses what production documents as unsupported: anything but one collection group
  /// (`allDescendants`) ordered by `__name__` ascending, with no filter, projection, cursor,
  /// offset, limit or vector search; and a `partitionCount` that is not positive.
  static func validate(_ request: PartitionQueryRequest) throws(MockError) {
    let query = request.structuredQuery
    if request.partitionCount <= 0 { throw .invalidArgument("partition_count must be positive, got \(request.partitionCount).") }
    guard query.from.count == 1, query.from[0].allDescendants, !query.from[0].collectionID.isEmpty else {
      throw .invalidArgument("partitionQuery needs a collection group query: one collection ID with all_descendants.")
    }
    for selector in query.from where selector.collectionID.contains("/") {
      throw .invalidArgument("Collection id \"\(selector.collectionID)\" is invalid because it contains \"/\".")
    }
    guard query.orderBy.count == 1, query.orderBy[0].fieldPath == FieldPathParser.documentKey, !query.orderBy[0].descending else {
      throw .invalidArgument("partitionQuery needs the query ordered by __name__ ascending, and by nothing else.")
    }
    if query.filter != nil || query.select != nil || query.startAt != nil || query.endAt != nil || query.offset != nil
      || query.limit != nil || query.findNearest != nil
    {
      throw .invalidArgument("partitionQuery supports no filters, projections, cursors, offsets, limits or vector searches.")
    }
  }

  /// Up to `count` split points over documents named `names` (in any order): names of
  /// evenly spaced documents, in `__name__` order, each starting a partition. A group of
  /// `n` documents gives at most `n - 1` points, so that no partition is empty.
  static func splitPoints(of names: [String], count: Int) -> [String] {
    let sorted = names.sorted { ValueOrdering.compareResourceNames($0, $1) < 0 }
    let points = min(count, max(sorted.count - 1, 0))
    guard points > 0 else { return [] }
    return (1...points).map { i in sorted[i * sorted.count / (points + 1)] }
  }
}
