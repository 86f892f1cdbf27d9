import FirestoreEngine
import FirestoreWire

/// Every collection with one ID, at any depth: what ``Firestore/collectionGroup(_:)``
/// returns. It is a ``Query`` like any other, and it can also be split into partitions
/// that separate workers read in parallel (``getPartitions(_:)``).
public final class CollectionGroup: Query, @unchecked Sendable {
  // Sendable as `Query` is: it adds nothing.

  init(firestore: Firestore, collectionID: String, recordedError: FirestoreError?) {
    super.init(
      firestore: firestore,
      definition: Definition(parent: .root, collectionID: collectionID, allDescendants: true, recordedError: recordedError))
  }

  /// Splits the group into at most `desiredPartitionCount` partitions that together hold
  /// every document of the group exactly once, ordered by document path, so that each can
  /// be read by another task, process or machine (Firestore's `partitionQuery`, as the
  /// server SDKs' `getPartitions`).
  ///
  /// ```swift
  /// let partitions = try await db.collectionGroup("events").getPartitions(8)
  /// try await withThrowingTaskGroup(of: Int.self) { group in
  ///   for partition in partitions {
  ///     group.addTask { try await partition.toQuery().getDocuments().count }
  ///   }
  ///   for try await n in group { print(n) }
  /// }
  /// ```
  ///
  /// Firestore may return fewer partitions than asked (a small group gives one); one
  /// partition needs no request at all.
  ///
  /// - Throws: `invalidArgument` for a count below 1 or an invalid collection ID, before
  ///   any request; `unimplemented` from a server without `partitionQuery` (the Firestore
  ///   emulator).
  public func getPartitions(_ desiredPartitionCount: Int) async throws -> [QueryPartition] {
    if let recordedError { throw recordedError }
    guard desiredPartitionCount >= 1 else {
      throw FirestoreError.invalidArgument("getPartitions needs a desired partition count of at least 1, got \(desiredPartitionCount)")
    }
    guard desiredPartitionCount > 1 else { return [QueryPartition(collectionGroup: self, startAt: nil, endBefore: nil)] }
    let query = StructuredQuery(
      from: [.init(collectionID: collectionID, allDescendants: true)],
      orderBy: [.init(fieldPath: FieldPath.documentID().canonicalString, descending: false)])
    var points: [String] = []
    var token: String?
    repeat {
      // The count is of split points, one fewer than the partitions they make.
      let request = PartitionQueryRequest(structuredQuery: query, partitionCount: Int64(desiredPartitionCount - 1), pageToken: token)
      let reply = try await firestore.rest.unary(
        .init(.partitionQuery, body: request.json))
      let page = try firestore.decode("partitionQuery page") { try PartitionQueryResponse(json: reply) }
      for cursor in page.partitions {
        guard cursor.values.count == 1, case .reference(let name) = cursor.values[0] else {
          throw FirestoreError(.internal, "partitionQuery returned a cursor that is not one document reference: \(cursor.values)")
        }
        points.append(name)
      }
      token = page.nextPageToken.flatMap { $0.isEmpty ? nil : $0 }
    } while token != nil
    // Pages come in no particular order.
    points.sort { ValueOrdering.compareResourceNames($0, $1) < 0 }
    var references: [DocumentReference] = []
    for (i, name) in points.enumerated() where i == 0 || points[i - 1] != name {
      references.append(try firestore.reference(forName: name))
    }
    var partitions: [QueryPartition] = []
    var start: DocumentReference?
    for reference in references {
      partitions.append(QueryPartition(collectionGroup: self, startAt: start, endBefore: reference))
      start = reference
    }
    partitions.append(QueryPartition(collectionGroup: self, startAt: start, endBefore: nil))
    return partitions
  }
}
