import FirestoreWire

extension FirestoreError {
  /// Whether the error means the server could not be reached (so ``FirestoreSource/default``
  /// reads fall back to the cache), rather than that it answered with a refusal.
  var meansOffline: Bool { code == .unavailable || code == .deadlineExceeded }
}

extension Optional where Wrapped == ReadConsistency {
  /// Whether the read is of the database now, outside a transaction: only then do its
  /// documents enter the cache and this client's pending writes show in them. A read of
  /// the past (`readTime`) is not the latest version known; a transaction's reads, as the
  /// Apple SDK's, stay apart from the local store, as its writes do (the cache would keep a
  /// version the transaction's own commit replaced).
  var touchesLocalStore: Bool { self == nil }
}
