import FirestorePlatform
import FirestoreWire

extension Firestore {
  /// Runs `body` in a transaction and commits its writes atomically.
  ///
  /// ```swift
  /// let newCount = try await db.runTransaction { tx in
  ///   let snapshot = try await tx.getDocument(counter)
  ///   let count = (snapshot.get("count") as? Int ?? 0) + 1
  ///   tx.updateData(["count": count], forDocument: counter)
  ///   return count
  /// }
  /// ```
  ///
  /// - When the transaction is `aborted` (contention), the server no longer knows it
  ///   (expired) or refuses it for load (`resourceExhausted`), the whole body runs again,
  ///   up to `options.maxAttempts` times, after the settings' ``RetryPolicy`` backoff (its
  ///   longest after an overload); keep the body free of other side effects.
  /// - A commit whose outcome is unknown (the connection broke, `unavailable`,
  ///   `deadlineExceeded`) is not run again, where the Apple SDK runs it again: the commit
  ///   may have been applied, and the body's effect would be applied twice.
  /// - An error thrown by `body` rolls the transaction back and is rethrown unchanged.
  /// - A transaction is always ended (committed or rolled back), also on cancellation, so
  ///   it never keeps locks held.
  /// - As in the Apple SDK, a transaction fails at once with `unavailable` while the
  ///   client is offline: the network is disabled, or no request could reach the server in
  ///   the last ten seconds. Writes outside transactions are queued instead.
  public func runTransaction<T: Sendable>(
    options: TransactionOptions = TransactionOptions(), _ body: @Sendable (Transaction) async throws -> T
  ) async throws -> T {
    guard options.maxAttempts >= 1 else {
      throw FirestoreError(.invalidArgument, "TransactionOptions.maxAttempts must be at least 1, got \(options.maxAttempts)")
    }
    if options.readTime != nil && !options.readOnly {
      throw FirestoreError(.invalidArgument, "TransactionOptions.readTime needs readOnly: true")
    }
    // As in the Apple SDK, a transaction needs the server: while the client is offline it
    // fails at once rather than after its retries.
    try checkServerReachable("the transaction")
    if network.isOffline {
      throw FirestoreError(
        .unavailable,
        "the transaction was not started: the server could not be reached in the last \(NetworkGate.offlineVerdictLifetime) (the client is offline)"
      )
    }
    var policy = configuration.retryPolicy
    policy.maximumAttempts = options.maxAttempts
    // The transaction an attempt ran and the rollback it started: a retry names the one and
    // waits for the other, so that the two never cross.
    let previous = Locked<(id: String, rollback: Task<Void, Never>?)?>(nil)
    var loop = RetryLoop(retryClass: .transaction, policy: policy)
    loop.beforeRetry = { await previous.value?.rollback?.value }
    let cancelled = FirestoreError(.cancelled, "the transaction was cancelled while waiting to retry")
    return try await loop.run(cancelled: cancelled) { _ in
      let wireOptions: FirestoreWire.TransactionOptions =
        options.readOnly ? .readOnly(readTime: options.readTime) : .readWrite(retrying: previous.value?.id)
      let id = try await beginTransaction(wireOptions)
      let transaction = Transaction(firestore: self, id: id, readOnly: options.readOnly)
      do {
        let result = try await body(transaction)
        if let recorded = transaction.recordedError { throw recorded }
        _ = try await commit(transaction.bufferedWrites, transaction: id)
        return result
      } catch {
        // The server ends a transaction it aborts; a rollback on top of that raced the retry
        // that names it (`retryTransaction`) on the emulator ("Can't swap from CLOSED to ACTIVE").
        let rollingBack = (error as? FirestoreError)?.code != .aborted ? rollback(id) : nil
        previous.withLock { $0 = (id, rollingBack) }
        throw error
      }
    }
  }

  func beginTransaction(_ options: FirestoreWire.TransactionOptions) async throws -> String {
    let reply = try await rest.unary(
      .init(.beginTransaction, body: .object([("options", options.json)])))
    guard let id = try? reply.optionalString("transaction"), !id.isEmpty else {
      throw FirestoreError(.internal, "beginTransaction reply has no transaction ID")
    }
    return id
  }

  /// Ends a transaction without writing, ignoring failures (a committed or unknown ID
  /// is fine), in a task of its own: a cancelled caller still releases the locks, and a
  /// caller whose transaction failed gets its error without waiting for the rollback. A
  /// retry waits for it, so that the two never cross.
  ///
  /// The rollback's deadline is at least ``rollbackTimeout``: releasing the locks matters
  /// most when the caller's own deadline is what ended the transaction.
  @discardableResult
  func rollback(_ id: String) -> Task<Void, Never> {
    let rest = self.rest
    var call = RESTClient.Call(.rollback, body: .object([("transaction", .string(id))]))
    call.timeout = max(rest.settings.timeout, Self.rollbackTimeout)
    return Task.detached { _ = try? await rest.unary(call) }
  }

  /// The shortest deadline a rollback gets.
  static let rollbackTimeout = Duration.seconds(10)
}
