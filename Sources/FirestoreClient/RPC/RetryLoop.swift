/// The one loop that tries an operation again: a REST call, a token exchange, a whole
/// transaction. What a failure means comes from the operation's ``RetryClass``, the waits
/// from the ``RetryPolicy``; the loop only counts attempts, keeps to the deadline and waits.
struct RetryLoop: Sendable {
  /// What kind of operation is retried.
  var retryClass: RetryClass
  /// Attempts, backoff, jitter and sleep.
  var policy: RetryPolicy
  /// When the whole operation must be done, retries included; no wait starts that could
  /// only end past it.
  var deadline: ContinuousClock.Instant?
  /// Tokens come from a provider, so an `UNAUTHENTICATED` is answered once with a fresh one.
  var hasTokenProvider = false
  /// Runs before each wait (a transaction lets its rollback finish there).
  var beforeRetry: @Sendable () async -> Void = {}

  /// Runs `attempt` until it returns, or fails with an error its class does not retry or
  /// after the last attempt the policy allows; that error is thrown. Errors that are not
  /// ``FirestoreError`` end the loop as they are.
  ///
  /// - Parameters:
  ///   - isolation: where `attempt` runs: the caller's actor, whose state it may read.
  ///   - cancelled: the error for a caller cancelled while waiting to retry.
  ///   - attempt: one try; its argument asks for a freshly fetched token.
  func run<T>(
    isolation: isolated (any Actor)? = #isolation, cancelled: @autoclosure () -> FirestoreError,
    _ attempt: (_ refreshCredentials: Bool) async throws -> T
  ) async throws -> T {
    let clock = ContinuousClock()
    var number = 1
    var refreshed = false
    var refreshNow = false
    while true {
      do {
        return try await attempt(refreshNow)
      } catch let error as FirestoreError {
        refreshNow = false
        let verdict = retryClass.verdict(
          on: error, attempt: number, policy: policy, credentialsRefreshed: refreshed, hasTokenProvider: hasTokenProvider)
        switch verdict {
        case .fail:
          throw error
        case .refreshCredentials:
          refreshed = true
          refreshNow = true
        case .backOff(let cap):
          let wait = policy.jitter(cap)
          // A retry that could only start after the deadline would fail anyway: report the real error.
          if let deadline, clock.now + wait >= deadline { throw error }
          await beforeRetry()
          do {
            try await policy.sleep(wait)
          } catch {
            throw cancelled()
          }
          number += 1
        }
      }
    }
  }
}
