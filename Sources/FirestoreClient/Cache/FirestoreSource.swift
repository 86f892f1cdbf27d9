/// Where a read gets its data: the server, the local cache, or the server with the cache as
/// a fallback. The names follow the Firebase Apple SDK.
///
/// ```swift
/// // Fill the screen from the cache at once, then refresh from the server.
/// let cached = try? await ref.getDocument(source: .cache)
/// let fresh = try await ref.getDocument(source: .server)
/// ```
public enum FirestoreSource: Sendable, Hashable {
  /// The server; when it cannot be reached (`unavailable` or `deadlineExceeded`, once the
  /// settings' ``RetryPolicy`` has given up), the local cache, with
  /// ``SnapshotMetadata/isFromCache`` set. A document the cache knows nothing of then
  /// fails with the server's error; a query returns what the cache holds.
  case `default`
  /// The server only: a failure is reported, never replaced by cached data.
  case server
  /// The local cache only, never the network: a document the cache knows nothing of fails
  /// with `unavailable`; one this client deleted, or a read or listener found missing, is a
  /// snapshot that does not exist (as the Apple SDK keeps a `NoDocument`); a query returns
  /// the cached documents that match (possibly none).
  case cache
}
