/// The cache behind the refreshing providers: keeps the current token, refreshes it ahead
/// of expiry, and makes concurrent callers share one refresh (single flight).
///
/// - A token is used until `refreshMargin` before it expires; then the next caller starts
///   a refresh and every caller that arrives meanwhile waits for that same refresh.
/// - A forced refresh (the server rejected a token) also joins a refresh in flight, and
///   takes a token fetched within the last ``forcedRefreshReuse``, so that many calls
///   rejected at once cause one refresh, not one each.
/// - When a refresh ahead of expiry fails while the current token is still valid, that
///   token is returned and no refresh is tried again for ``failureBackoff``.
actor TokenRefresher {
  /// A token and when it stops being valid (`nil`: unknown, used until rejected).
  struct Token: Sendable {
    var value: String
    var expiresAt: ContinuousClock.Instant?
  }

  /// What a fetch returns: the token and its lifetime as the issuer stated it.
  struct Fetched: Sendable {
    var value: String
    var lifetime: Duration?
  }

  /// Forced refreshes within this long after a refresh reuse its token.
  static let forcedRefreshReuse: Duration = .seconds(2)
  /// After a failed early refresh, how long to keep the still-valid token before trying again.
  static let failureBackoff: Duration = .seconds(5)

  private let fetch: @Sendable () async throws -> Fetched
  private let refreshMargin: Duration
  private let now: @Sendable () -> ContinuousClock.Instant

  private var current: Token?
  private var fetchedAt: ContinuousClock.Instant?
  private var inflight: Task<Token, any Error>?
  private var retryNotBefore: ContinuousClock.Instant?
  /// Bumped by ``reset()``, so a refresh that started before it cannot store its token.
  private var generation = 0

  /// How many fetches were started, for tests.
  private(set) var fetchCount = 0

  /// Creates a cache.
  /// - Parameters:
  ///   - initial: a token to start with (one the caller already has).
  ///   - refreshMargin: refresh this long before expiry (Google's libraries use 3¾–5 min).
  ///   - now: the clock, replaceable in tests.
  ///   - fetch: obtains a new token.
  init(
    initial: Fetched? = nil, refreshMargin: Duration = .seconds(300),
    now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }, fetch: @escaping @Sendable () async throws -> Fetched
  ) {
    self.refreshMargin = refreshMargin
    self.now = now
    self.fetch = fetch
    if let initial {
      let time = now()
      current = Token(value: initial.value, expiresAt: initial.lifetime.map { time + $0 })
      fetchedAt = time
    }
  }

  /// The current token, refreshed first when it is missing, near expiry or `forceRefresh`.
  func token(forceRefresh: Bool) async throws -> String {
    if let inflight {
      do {
        return try await inflight.value.value
      } catch {
        if !forceRefresh, let current, isValid(current, at: now()) { return current.value }
        throw error
      }
    }
    let time = now()
    if let current {
      if forceRefresh {
        if let fetchedAt, time - fetchedAt < Self.forcedRefreshReuse { return current.value }
      } else if isFresh(current, at: time) {
        return current.value
      } else if isValid(current, at: time), let retryNotBefore, time < retryNotBefore {
        return current.value
      }
    }
    return try await refresh(forced: forceRefresh)
  }

  /// Stores a token obtained elsewhere (a sign-in), replacing the current one.
  func store(_ fetched: Fetched) {
    let start = now()
    generation += 1
    inflight = nil
    current = Token(value: fetched.value, expiresAt: fetched.lifetime.map { start + $0 })
    fetchedAt = start
    retryNotBefore = nil
  }

  /// Forgets the token and any refresh in flight (sign-out).
  func reset() {
    generation += 1
    inflight = nil
    current = nil
    fetchedAt = nil
    retryNotBefore = nil
  }

  /// The current token's expiry, for tests.
  var currentExpiry: ContinuousClock.Instant? { current?.expiresAt }

  private func isFresh(_ token: Token, at time: ContinuousClock.Instant) -> Bool {
    guard let expiresAt = token.expiresAt else { return true }
    return expiresAt - time > refreshMargin
  }

  private func isValid(_ token: Token, at time: ContinuousClock.Instant) -> Bool {
    guard let expiresAt = token.expiresAt else { return true }
    // A token about to expire would fail in flight; treat the last 10 s as expired.
    return expiresAt - time > .seconds(10)
  }

  private func refresh(forced: Bool) async throws -> String {
    let fetch = self.fetch
    let now = self.now
    let startGeneration = generation
    fetchCount += 1
    // Unstructured, so that one caller's cancellation does not fail the others.
    let task = Task<Token, any Error> {
      let start = now()
      let fetched = try await fetch()
      return Token(value: fetched.value, expiresAt: fetched.lifetime.map { start + $0 })
    }
    inflight = task
    do {
      let token = try await task.value
      if generation == startGeneration {
        inflight = nil
        current = token
        fetchedAt = now()
        retryNotBefore = nil
      }
      return token.value
    } catch {
      if generation == startGeneration {
        inflight = nil
        let time = now()
        if !forced, let current, isValid(current, at: time) {
          retryNotBefore = time + Self.failureBackoff
          return current.value
        }
      }
      throw error
    }
  }
}
