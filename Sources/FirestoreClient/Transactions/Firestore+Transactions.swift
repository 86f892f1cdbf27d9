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
  /// - When the transaction is `aborted` (contention), or the server no longer knows it
  ///   (expired), the whole body runs again, up to `options.maxAttempts` times with
  ///   backoff; keep the body free of other side effects.
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
    let policy = configuration.retryPolicy
    var previousID: String?
    var attempt = 1
    while true {
      let wireOptions: FirestoreWire.TransactionOptions =
        options.readOnly ? .readOnly(readTime: options.readTime) : .readWrite(retrying: previousID)
      let id = try await beginTransaction(wireOptions)
      let transaction = Transaction(firestore: self, id: id, readOnly: options.readOnly)
      let result: T
      do {
        result = try await body(transaction)
      } catch {
        // The server ends a transaction it aborts; a rollback on top of that raced the retry
        // that names it (`retryTransaction`) on the emulator ("Can't swap from CLOSED to ACTIVE").
        let rollingBack = (error as? FirestoreError)?.code != .aborted ? rollback(id) : nil
        if let error = error as? FirestoreError, Self.restartsTransaction(error), attempt < options.maxAttempts {
          await rollingBack?.value
          try await backoff(policy, attempt: attempt)
          previousID = id
          attempt += 1
          continue
        }
        throw error
      }
      do {
        if let recorded = transaction.recordedError { throw recorded }
        _ = try await commit(transaction.bufferedWrites, transaction: id)
        return result
      } catch let error as FirestoreError {
        let rollingBack = error.code != .aborted ? rollback(id) : nil
        guard Self.restartsTransaction(error), attempt < options.maxAttempts else { throw error }
        await rollingBack?.value
        try await backoff(policy, attempt: attempt)
        previousID = id
        attempt += 1
      }
    }
  }

  /// Whether `error` means the transaction, not the body's work, failed, so that running it
  /// again from the start is safe: contention (`aborted`), or a transaction the server no
  /// longer knows (production: "has expired or is no longer valid"; the emulator: "invalid
  /// or closed"), whose commit cannot have applied.
  static func restartsTransaction(_ error: FirestoreError) -> Bool {
    if error.code == .aborted { return true }
    guard error.code == .invalidArgument, error.serverStatus != nil else { return false }
    let message = error.message.lowercased()
    return message.contains("transaction")
      && (message.contains("expired") || message.contains("closed") || message.contains("no longer valid"))
  }

  private func backoff(_ policy: RetryPolicy, attempt: Int) async throws {
    do {
      try await policy.sleep(policy.jitter(policy.backoffCap(afterAttempt: attempt)))
    } catch {
      throw FirestoreError(.cancelled, "the transaction was cancelled while waiting to retry")
    }
  }

  func beginTransaction(_ options: FirestoreWire.TransactionOptions) async throws -> String {
    let reply = try await rest.unary(
      .init(method: "POST", path: "documents:beginTransaction", body: .object([("options", options.json)]), idempotent: true))
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
    var call = RESTClient.Call(
      method: "POST", path: "documents:rollback", body: .object([("transaction", .string(id))]), idempotent: true)
    call.timeout = max(rest.settings.timeout, Self.rollbackTimeout)
    return Task.detached { _ = try? await rest.unary(call) }
  }

  /// The shortest deadline a rollback gets.
  static let rollbackTimeout = Duration.seconds(10)
}
