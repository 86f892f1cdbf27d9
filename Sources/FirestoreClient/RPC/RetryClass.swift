/// How a failed call may be tried again. Every caller states its class (a call of the
/// ``FirestoreRPC`` table, a Listen channel request, a transaction, the Listen stream, a
/// queued write batch, a bulk writer's write); what an error means for each is decided
/// here, so that a code means the same wherever it is met.
enum RetryClass: Sendable, Equatable {
  /// Sending it twice changes nothing (reads, rollbacks, repeatable writes, token
  /// exchanges): retried on the policy's ``RetryPolicy/retryableCodes``.
  case idempotent
  /// Applying it twice would be wrong: retried only when it provably never went out.
  case atMostOnce
  /// A commit outside a transaction: `aborted` means nothing was applied, so it is retried
  /// too; a lost reply is retried when the writes are `repeatable`.
  case commit(repeatable: Bool)
  /// A whole transaction, body included: run again when the server aborted it (contention),
  /// no longer knows it (``FirestoreError/transactionExpired``) or refused it for load
  /// (``isOverload(_:)``): each way nothing was committed. It waits as the policy says, the
  /// longest after an overload.
  case transaction
  /// A request of the Listen channel: sent again when it failed before the server acted on
  /// it. A gateway's 502, 503 or 504 (a proxy that handed it a connection the server was
  /// closing) or a connection lost before it went out qualify for any; a connection lost
  /// before any reply too for a `resendable` one (a back channel resumes at its last array
  /// id, a forward POST is de-duplicated by its map ids). A handshake sent twice at worst
  /// opens a session nobody uses, which the server drops when it expires.
  case channel(resendable: Bool)
  /// A batch of the queue of writes, after the call's own retries: it stays queued (and is
  /// sent again after a backoff) when nothing was applied, or when its writes are
  /// `repeatable` and the outcome is open; otherwise it is rejected and rolled back.
  case queuedCommit(repeatable: Bool)
  /// One write of a bulk writer: tried again (after its backoff) on `aborted`,
  /// `unavailable` and `resourceExhausted`, and on `internal` for a delete, which cannot
  /// apply twice, as Firestore's server SDKs decide it.
  case bulkWrite(isDelete: Bool)
  /// The Listen stream: it is always opened again (after a backoff); an `UNAUTHENTICATED`
  /// first gets a fresh token at once.
  case stream

  /// What to do after a failed attempt.
  enum Verdict: Sendable, Equatable {
    /// Report the error.
    case fail
    /// Try again after a wait of up to `cap` (jittered by the policy).
    case backOff(cap: Duration)
    /// Try again at once with a freshly fetched token: the one sent was refused.
    case refreshCredentials
  }

  /// Whether sending the operation twice changes nothing.
  var isIdempotent: Bool {
    switch self {
    case .idempotent, .commit(repeatable: true): return true
    case .channel(let resendable): return resendable
    case .queuedCommit(let repeatable): return repeatable
    case .atMostOnce, .commit(repeatable: false), .transaction, .stream, .bulkWrite: return false
    }
  }

  /// Whether a call of this class that failed with `error` may be sent again at all
  /// (ignoring the attempt count and the deadline).
  func allowsRetry(of error: FirestoreError, retryableCodes: Set<FirestoreError.Code>) -> Bool {
    // Another user's token: no retry or refresh makes it the right one.
    if error.otherUser { return false }
    // Its calls have retried what they may already; only the transaction's own failures remain.
    if self == .transaction { return error.canonicalCode == .aborted || error.transactionExpired || Self.isOverload(error) }
    if case .channel(let resendable) = self {
      if let status = error.httpStatus { return (502...504).contains(status) }
      return error.requestNotSent || (resendable && error.canonicalCode == .unavailable)
    }
    if error.requestNotSent { return true }
    // A size refused, or a reply too large to read, comes back the same every time.
    if error.requestTooLarge || error.replyUnusable { return false }
    switch self {
    case .idempotent: return retryableCodes.contains(error.canonicalCode)
    case .atMostOnce: return false
    case .commit(let repeatable):
      return error.canonicalCode == .aborted || (repeatable && retryableCodes.contains(error.canonicalCode))
    case .queuedCommit(let repeatable):
      return Self.provesNotApplied(error) || (repeatable && Self.leavesOutcomeOpen(error.canonicalCode))
    case .bulkWrite(let isDelete):
      switch error.canonicalCode {
      case .aborted, .unavailable, .resourceExhausted: return true
      case .internal: return isDelete
      default: return false
      }
    case .transaction, .stream, .channel: return true
    }
  }

  /// The verdict on attempt `attempt` (from 1) failing with `error`.
  ///
  /// - Parameters:
  ///   - credentialsRefreshed: a fresh token was already fetched for an `UNAUTHENTICATED`
  ///     since the call (or, for the stream, since data last flowed); another one backs off
  ///     or fails, so a token the server keeps refusing cannot make the caller spin.
  ///   - hasTokenProvider: tokens come from a provider, so a fresh one may differ.
  func verdict(
    on error: FirestoreError, attempt: Int, policy: RetryPolicy, credentialsRefreshed: Bool, hasTokenProvider: Bool
  ) -> Verdict {
    if error.otherUser { return .fail }
    // A transaction's calls refresh their own tokens; the transaction retries for its own reasons.
    if error.canonicalCode == .unauthenticated && !credentialsRefreshed && hasTokenProvider && self != .transaction {
      return .refreshCredentials
    }
    switch self {
    case .stream:
      return .backOff(cap: Backoff.stream.cap(afterAttempt: attempt, overloaded: Self.isOverload(error)))
    case .transaction:
      guard attempt < policy.maximumAttempts, allowsRetry(of: error, retryableCodes: policy.retryableCodes) else { return .fail }
      return .backOff(cap: policy.schedule.cap(afterAttempt: attempt, overloaded: Self.isOverload(error)))
    case .idempotent, .atMostOnce, .commit, .channel, .queuedCommit, .bulkWrite:
      guard attempt < policy.maximumAttempts, allowsRetry(of: error, retryableCodes: policy.retryableCodes) else { return .fail }
      return .backOff(cap: policy.backoffCap(afterAttempt: attempt))
    }
  }

  /// Whether `error` proves the request was not applied: it never went out, the server
  /// aborted it as a whole, or refused it for quota (a refusal for its size is final).
  static func provesNotApplied(_ error: FirestoreError) -> Bool {
    error.requestNotSent || error.canonicalCode == .aborted || isOverload(error)
  }

  /// Whether `error` says the server is overloaded (`resourceExhausted` for quota or load,
  /// not for a request's size): the next attempt waits the longest backoff.
  static func isOverload(_ error: FirestoreError) -> Bool {
    error.canonicalCode == .resourceExhausted && !error.requestTooLarge && !error.replyUnusable
  }

  /// Whether a failure with `code` says nothing about whether the request was applied.
  static func leavesOutcomeOpen(_ code: FirestoreError.Code) -> Bool {
    [.unavailable, .deadlineExceeded, .internal, .unknown, .cancelled].contains(code)
  }
}
