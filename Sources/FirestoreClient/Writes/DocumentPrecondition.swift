import FirestoreWire

/// A condition a write checks against the stored document; if it fails, nothing is written.
public enum DocumentPrecondition: Sendable, Equatable {
  /// The document must exist (`true`; else `notFound`) or must not exist (`false`; else `alreadyExists`).
  case exists(Bool)
  /// The document must exist and have last changed at exactly this time (else `failedPrecondition`):
  /// optimistic locking without a transaction.
  case updateTime(Timestamp)

  var wire: Precondition {
    switch self {
    case .exists(let b): return .exists(b)
    case .updateTime(let t): return .updateTime(t)
    }
  }
}
