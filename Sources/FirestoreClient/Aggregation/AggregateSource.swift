/// Where an ``AggregateQuery`` is computed. As in the Apple SDK, the server is the only
/// source: an aggregation never counts the local cache or this client's pending writes,
/// and fails when the server cannot be reached.
///
/// ```swift
/// let snapshot = try await db.collection("cities").count.getAggregation(source: .server)
/// print(snapshot.count)
/// ```
public enum AggregateSource: Sendable, Hashable {
  /// The server computes the aggregation over the stored documents.
  case server
}
