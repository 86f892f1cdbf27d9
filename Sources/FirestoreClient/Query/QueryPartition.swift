/// One part of a collection group from ``CollectionGroup/getPartitions(_:)``: the
/// documents from ``startAt`` (included) up to ``endBefore`` (excluded), by document path.
///
/// To read it in another process, send the group's ID and the two paths, and rebuild it
/// there:
///
/// ```swift
/// let partition = QueryPartition(collectionGroup: db.collectionGroup("events"),
///                                startAt: start.map(db.document), endBefore: end.map(db.document))
/// for try await event in partition.toQuery().stream() { … }
/// ```
public struct QueryPartition: Sendable {
  /// The group partitioned.
  public let collectionGroup: CollectionGroup
  /// The first document of the partition; `nil` for the first partition.
  public let startAt: DocumentReference?
  /// The document after the partition; `nil` for the last partition.
  public let endBefore: DocumentReference?

  /// A partition of `collectionGroup` between two documents.
  public init(collectionGroup: CollectionGroup, startAt: DocumentReference?, endBefore: DocumentReference?) {
    self.collectionGroup = collectionGroup
    self.startAt = startAt
    self.endBefore = endBefore
  }

  /// The query over the partition's documents: the group ordered by document path,
  /// between the partition's bounds.
  public func toQuery() -> Query {
    var query = collectionGroup.order(by: FieldPath.documentID())
    if let startAt { query = query.start(at: [startAt]) }
    if let endBefore { query = query.end(before: [endBefore]) }
    return query
  }
}
