/// How ``Firestore/runTransaction(options:_:)`` runs a transaction.
public struct TransactionOptions: Sendable {
  /// The most attempts, the first included; an `aborted` transaction is retried until then.
  public var maxAttempts: Int
  /// Whether the transaction only reads. Read-only transactions take no locks and may
  /// read at ``readTime``; a write inside one fails.
  public var readOnly: Bool
  /// For a read-only transaction: read the database as it was at this time.
  public var readTime: Timestamp?

  /// Creates options: by default read-write with 5 attempts, as the Firebase SDKs do.
  public init(maxAttempts: Int = 5, readOnly: Bool = false, readTime: Timestamp? = nil) {
    self.maxAttempts = maxAttempts
    self.readOnly = readOnly
    self.readTime = readTime
  }
}
