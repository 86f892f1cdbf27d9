/// When and how long to wait before retrying a failed request.
///
/// Backoff is exponential with full jitter: attempt *n* waits a random time up to
/// `min(maximumBackoff, initialBackoff × multiplier^(n-1))`. Reads retry on
/// `unavailable`, `resourceExhausted`, `deadlineExceeded` and `internal`; writes retry
/// only where a second attempt cannot apply twice (see ``shouldRetry(_:attempt:idempotent:retriesAborted:)``).
///
/// ```swift
/// var policy = RetryPolicy()
/// policy.maximumAttempts = 3
/// policy.sleep = { _ in }   // in tests: retry at once
/// ```
public struct RetryPolicy: Sendable {
  /// The most attempts per call, the first included; 1 disables retries.
  public var maximumAttempts: Int
  /// The cap of the first wait.
  public var initialBackoff: Duration
  /// The largest wait.
  public var maximumBackoff: Duration
  /// How much the cap grows per attempt.
  public var multiplier: Double
  /// The codes that make an idempotent request retry.
  public var retryableCodes: Set<FirestoreError.Code>
  /// Waits between attempts; replace it to make retry tests instant.
  public var sleep: @Sendable (Duration) async throws -> Void
  /// Picks the jittered wait in `0...cap`; replace it for deterministic tests.
  public var jitter: @Sendable (Duration) -> Duration

  /// Defaults: 5 attempts, first wait up to 100 ms, growing ×1.5 per attempt, 60 s cap.
  public init(
    maximumAttempts: Int = 5, initialBackoff: Duration = .milliseconds(100), maximumBackoff: Duration = .seconds(60),
    multiplier: Double = 1.5
  ) {
    self.maximumAttempts = maximumAttempts
    self.initialBackoff = initialBackoff
    self.maximumBackoff = maximumBackoff
    self.multiplier = multiplier
    retryableCodes = [.unavailable, .resourceExhausted, .deadlineExceeded, .internal]
    sleep = { try await Task.sleep(for: $0) }
    jitter = { Backoff.fullJitter($0) }
  }

  /// A policy that never retries.
  public static let none = RetryPolicy(maximumAttempts: 1)

  /// The largest wait before attempt `attempt + 1` (attempts count from 1).
  public func backoffCap(afterAttempt attempt: Int) -> Duration {
    schedule.cap(afterAttempt: attempt)
  }

  /// The policy's waits as a schedule.
  var schedule: Backoff { Backoff(initial: initialBackoff, maximum: maximumBackoff, multiplier: multiplier) }

  /// Whether a streamed reply that `error` broke after it brought results (a query stream,
  /// a recursive delete's page) is asked again for the rest: as a read would be sent
  /// again, unless the policy allows no retry at all.
  func resumesBrokenReply(after error: FirestoreError) -> Bool {
    maximumAttempts > 1 && RetryClass.idempotent.allowsRetry(of: error, retryableCodes: retryableCodes)
  }

  /// Whether a call that failed with `error` on attempt `attempt` should be tried again.
  ///
  /// - `idempotent` requests (reads, and writes whose repetition changes nothing) retry
  ///   on ``retryableCodes``.
  /// - Any request retries when the error proves it never reached the server (the
  ///   connection could not be made).
  /// - `retriesAborted` requests also retry on `aborted`, which means nothing was applied:
  ///   the client passes it for commits outside a transaction (a transaction retries as a
  ///   whole instead).
  public func shouldRetry(_ error: FirestoreError, attempt: Int, idempotent: Bool, retriesAborted: Bool = false) -> Bool {
    let retryClass: RetryClass = retriesAborted ? .commit(repeatable: idempotent) : idempotent ? .idempotent : .atMostOnce
    return attempt < maximumAttempts && retryClass.allowsRetry(of: error, retryableCodes: retryableCodes)
  }
}
