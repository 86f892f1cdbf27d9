import FirestoreWire

extension FirestoreError {
  /// Whether the error means the server could not be reached (so ``FirestoreSource/default``
  /// reads fall back to the cache), rather than that it answered with a refusal.
  var meansOffline: Bool { code == .unavailable || code == .deadlineExceeded }
}

extension Optional where Wrapped == ReadConsistency {
  /// Whether the read is of the past (`readTime`): its documents must not enter the cache,
  /// which holds the latest version known.
  var isHistorical: Bool {
    if case .readTime? = self { return true }
    return false
  }
}
