import FirestorePlatform
import FirestoreWire
import Foundation

/// Sends a ``Firestore`` instance's queued write batches: the I/O side of the
/// ``MutationQueue`` the ``LocalStore`` keeps.
///
/// A write is queued and shown to listeners in one step, then sent by a task of the
/// pipeline, so it outlives its caller (and, with a persistent cache, the process); the
/// first attempt at an awaited single write that may be repeated is its caller's own (see
/// ``commit(_:body:)``). The caller of an `async` write waits for the server's answer; a
/// fire-and-forget write does not. How an attempt ended decides the batch's fate:
///
/// * applied: acknowledged; the caller gets the results;
/// * not applied (never sent, the network disabled, `aborted`, `resourceExhausted`):
///   kept and sent again after a backoff (at once when the server is reachable again);
/// * outcome unknown (`unavailable`, `deadlineExceeded`, `internal`, `unknown` after the
///   request went out): sent again only when applying it twice changes nothing; otherwise
///   dropped, rolled back locally, and the caller gets the error, which says so; a reply
///   past the size limit is dropped so too (sending again would get as large a reply);
/// * refused (any other code): dropped, rolled back, and the caller gets the error.
///
/// Each batch belongs to the user signed in when it was made and goes only with that
/// user's token: when the token provider's user changes (a sign-out, another sign-in,
/// another process on the same cache file), the other users' batches wait, hidden from the
/// listeners, until their user is back.
final class WritePipeline: Sendable {
  private struct State {
    /// Who waits for each batch's outcome, by batch ID.
    var waiters: [Int: Settled] = [:]
    /// `waitForPendingWrites()` callers, with the last batch each waits for.
    var pendingWaiters: [(upTo: Int, continuation: CheckedContinuation<Void, any Error>)] = []
    /// How many attempts are under way (counted before their task starts).
    var sendsUnderWay = 0
    /// ``close()`` callers waiting for the attempts under way to end.
    var closeWaiters: [CheckedContinuation<Void, Never>] = []
    /// Set by ``close()``: nothing more is sent.
    var isClosed = false
    /// Hears that the user changed, after the queue and the views followed.
    var userChanged: (@Sendable () -> Void)?
  }

  /// Hears how a batch was settled.
  typealias Settled = @Sendable (Result<[WriteResult], FirestoreError>) -> Void

  private let store: LocalStore
  private let rest: RESTClient
  private let retryPolicy: RetryPolicy
  private let state = Locked(State())

  init(store: LocalStore, rest: RESTClient, retryPolicy: RetryPolicy) {
    self.store = store
    self.rest = rest
    self.retryPolicy = retryPolicy
  }

  /// Who is signed in now, when the token provider says without a token.
  private var currentUser: TokenUser? {
    guard let provider = rest.settings.tokenProvider else { return .unauthenticated }
    return provider.currentTokenUser
  }

  /// The token provider's tokens stand for `user` (a call just fetched one, or the
  /// provider said so): the queue and the views follow, then whoever observes the change.
  /// The one place the client follows the user from.
  func tokenUserChanged(to user: TokenUser) {
    let (changed, actions) = store.switchUser(to: user)
    if changed {
      rejectPendingWaiters()
      state.withLock { $0.userChanged }?()
    }
    perform(actions)
  }

  /// Calls `observer` each time the user changes (the listens reopen with its token).
  func observeUserChanges(_ observer: @escaping @Sendable () -> Void) {
    state.withLock { $0.userChanged = observer }
  }

  /// Follows the token provider's user when it says who is signed in without a token: on
  /// each write, and before the cache is read or listened to.
  func followCurrentUser() {
    if let user = currentUser { tokenUserChanged(to: user) }
  }

  /// The token provider announced `user`: an announcement says to look again, since one
  /// read late may be older than the user a write or read already followed, which the
  /// provider tells now.
  func followAnnounced(_ user: TokenUser) {
    tokenUserChanged(to: currentUser ?? user)
  }

  /// `waitForPendingWrites()` callers are answered `cancelled` when the user changes, as in
  /// the Apple SDK: the writes they waited for are another user's now.
  private func rejectPendingWaiters() {
    let waiting = state.withLock { s in
      defer { s.pendingWaiters = [] }
      return s.pendingWaiters.map(\.continuation)
    }
    let error = FirestoreError(.cancelled, "the signed-in user changed while waiting for pending writes")
    for continuation in waiting { continuation.resume(throwing: error) }
  }

  // MARK: - Writing

  /// Queues `writes` (whose commit request body is `body`) without waiting for the server;
  /// returns the batch ID.
  ///
  /// - Parameter settled: called once the server applied or refused the batch (or the
  ///   pipeline closed first).
  @discardableResult
  func submit(_ writes: [Write], body: Data, settled: Settled? = nil) -> Int {
    followCurrentUser()
    let (id, actions) = store.enqueue(writes, body: body, user: currentUser)
    if let settled { state.withLock { $0.waiters[id] = settled } }
    perform(actions, immediately: true)
    return id
  }

  /// Queues `writes` (whose commit request body is `body`) and returns the server's results
  /// once it applied them.
  ///
  /// A single write that may be sent twice, with nothing queued ahead of it, is sent in the
  /// caller's own task: the reply then wakes the caller, not a task that would wake it in
  /// turn. Should the caller be cancelled while it is under way, the attempt ends as one
  /// whose outcome is open, and the write, being repeatable, stays queued and is sent again.
  ///
  /// - Throws: the server's error when it refused the batch (which is then rolled back);
  ///   `cancelled` when the calling task is cancelled or the instance terminated first —
  ///   the batch stays queued and is still sent.
  func commit(_ writes: [Write], body: Data) async throws -> [WriteResult] {
    followCurrentUser()
    let (id, actions) = store.enqueue(writes, body: body, user: currentUser)
    let outcome = BatchOutcome()
    if actions.count == 1, case .send(id) = actions[0], writes.count == 1, WriteBuilder.isIdempotent(writes), !Task.isCancelled,
      beginAttempt()
    {
      if let settled = await send(id, caller: outcome) { return try settled.get() }
    } else {
      state.withLock { $0.waiters[id] = outcome.settle }
      perform(actions, immediately: true)
    }
    return try await withTaskCancellationHandler {
      try await outcome.value()
    } onCancel: {
      resumeCancelled(id)
    }
  }

  private func resumeCancelled(_ id: Int) {
    let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
    waiter?(
      .failure(
        FirestoreError(
          .cancelled, "the task was cancelled before the server applied the write; the write stays queued and is still sent")))
  }

  /// How many `waitForPendingWrites()` callers wait, for tests.
  var pendingWaiterCount: Int { state.withLock { $0.pendingWaiters.count } }

  /// Returns when every batch queued before the call is settled (applied or refused).
  func waitForPendingWrites() async throws {
    // The current user's writes are the ones waited for.
    followCurrentUser()
    guard let mark = store.lastPendingBatchID else { return }
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
      state.withLock { $0.pendingWaiters.append((mark, continuation)) }
      resumeSettledWaiters()
    }
  }

  private func resumeSettledWaiters() {
    guard !state.withLock({ $0.pendingWaiters.isEmpty }) else { return }
    // Read once, outside this lock: the store's lock is not taken under it. A batch once
    // settled stays settled, and a batch made after the read has an ID at or above the
    // bound, so a waiter added since is not released early.
    let settledBelow = store.settledBelow
    let ready = state.withLock { s -> [CheckedContinuation<Void, any Error>] in
      var ready: [CheckedContinuation<Void, any Error>] = []
      s.pendingWaiters.removeAll { waiter in
        guard waiter.upTo < settledBelow else { return false }
        ready.append(waiter.continuation)
        return true
      }
      return ready
    }
    for continuation in ready { continuation.resume() }
  }

  // MARK: - Network

  /// Allows or stops sending; enabling sends what is queued at once.
  func setNetworkEnabled(_ enabled: Bool) {
    perform(store.setNetworkEnabled(enabled))
  }

  /// A request reached the server: a backoff is cut short.
  func serverReachable() {
    perform(store.serverReachable())
  }

  /// Sends what a previous run left queued. When it left batches and the token provider
  /// does not say who is signed in, one token is fetched to learn it.
  func resume() {
    followCurrentUser()
    perform(store.takeRestoredActions())
    guard store.awaitsUser, let provider = rest.settings.tokenProvider else { return }
    Task {
      guard let token = try? await provider.token(forceRefresh: false) else { return }
      self.tokenUserChanged(to: provider.user(for: token))
    }
  }

  /// Stops sending and backing off, without waiting: the instance is gone.
  func stop() {
    state.withLock { $0.isClosed = true }
  }

  /// Stops sending, waits for the attempts under way, and resumes every waiting caller
  /// with `cancelled` (their batches stay queued for the next instance).
  func close() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let idle = state.withLock { s in
        s.isClosed = true
        guard s.sendsUnderWay > 0 else { return true }
        s.closeWaiters.append(continuation)
        return false
      }
      if idle { continuation.resume() }
    }
    let (waiters, pending) = state.withLock { s in
      defer {
        s.waiters = [:]
        s.pendingWaiters = []
      }
      return (Array(s.waiters.values), s.pendingWaiters.map(\.continuation))
    }
    let error = FirestoreError(
      .cancelled, "the Firestore instance was terminated before the server applied the write; a persistent cache keeps it queued")
    for waiter in waiters { waiter(.failure(error)) }
    for waiter in pending { waiter.resume(throwing: error) }
  }

  // MARK: - Sending

  /// Carries out what the queue decided.
  ///
  /// - Parameter immediately: start sends on this thread, up to their first wait (the
  ///   request going out), rather than handing them to another thread: for a batch just
  ///   queued, whose caller is about to wait for it. A send that ends another send starts
  ///   the next one in a task of its own, so a transport that answers without waiting
  ///   cannot nest them.
  private func perform(_ actions: [MutationQueue.Action], immediately: Bool = false) {
    for action in actions {
      switch action {
      case .send(let id):
        guard beginAttempt() else { continue }
        // Unstructured either way: a batch is sent even when its caller is cancelled.
        if immediately, #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *) {
          Task.immediate { await self.send(id) }
        } else {
          Task { await self.send(id) }
        }
      case .backOff(let attempt, let overloaded):
        let policy = retryPolicy
        // The Firebase SDKs' write-stream schedule; jitter and sleep come from the settings.
        let wait = policy.jitter(Backoff.stream.cap(afterAttempt: attempt, overloaded: overloaded))
        Task {
          try? await policy.sleep(wait)
          // A policy whose sleep returns at once (as tests set) must not make this spin.
          await Task.yield()
          guard !self.state.withLock({ $0.isClosed }) else { return }
          self.perform(self.store.backOffElapsed())
        }
      }
    }
  }

  /// Counts an attempt about to start, so that ``close()`` waits for it; `false` once closed.
  private func beginAttempt() -> Bool {
    state.withLock { s in
      guard !s.isClosed else { return false }
      s.sendsUnderWay += 1
      return true
    }
  }

  /// One attempt at batch `id`, counted by ``beginAttempt()`` before.
  ///
  /// - Parameter caller: the outcome its caller waits on, when the attempt runs in the
  ///   caller's own task: a settled batch is then returned, not handed to a waiter, and one
  ///   left queued gets the caller as its waiter before anything may send it again.
  /// - Returns: how the batch was settled, for the caller's own attempt; `nil` otherwise.
  @discardableResult
  private func send(_ id: Int, caller: BatchOutcome? = nil) async -> Result<[WriteResult], FirestoreError>? {
    defer { sendEnded() }
    guard let (writes, body, user) = store.beginSend(id) else {
      if let caller { state.withLock { $0.waiters[id] = caller.settle } }
      return nil
    }
    let isIdempotent = WriteBuilder.isIdempotent(writes)
    let result: LocalStoreState.SendResult
    var failure: FirestoreError?
    do {
      result = .acknowledged(try await Firestore.sendCommit(writes, body: body, transaction: nil, rest: rest, user: user))
    } catch {
      let error = error as? FirestoreError ?? FirestoreError(.unknown, "commit failed: \(error)")
      failure = error
      result = Self.judge(error, isIdempotent: isIdempotent)
    }
    let next = store.finishSend(id, result)
    let settled: Result<[WriteResult], FirestoreError>?
    switch result {
    case .acknowledged(let results): settled = .success(results)
    case .rejected: settled = .failure(failure ?? FirestoreError(.unknown, "the write was not applied"))
    case .retry, .otherUser: settled = nil
    }
    if let caller {
      if settled == nil { state.withLock { $0.waiters[id] = caller.settle } }
    } else if let settled {
      state.withLock { $0.waiters.removeValue(forKey: id) }?(settled)
    }
    // The cache learns the acknowledged documents after the caller was answered: here, or,
    // when this task is the caller's, when they are due (see
    // ``LocalStore/applyWhenDue(acknowledgedDocuments:)``), so that the caller goes on at once.
    if caller != nil { store.applyWhenDue(acknowledgedDocuments: writes.count) } else { store.flush() }
    resumeSettledWaiters()
    perform(next)
    return caller == nil ? nil : settled
  }

  /// An attempt ended: when it was the last under way, ``close()`` callers go on.
  private func sendEnded() {
    let closing = state.withLock { s -> [CheckedContinuation<Void, Never>] in
      s.sendsUnderWay -= 1
      guard s.sendsUnderWay == 0 else { return [] }
      defer { s.closeWaiters = [] }
      return s.closeWaiters
    }
    for continuation in closing { continuation.resume() }
  }

  /// What a failed attempt means for its batch (see the type's documentation).
  static func judge(_ error: FirestoreError, isIdempotent: Bool) -> LocalStoreState.SendResult {
    if error.otherUser { return .otherUser }
    // A retry the terminated instance did not send: the batch stays queued (a persistent
    // cache keeps it for the next instance). Earlier attempts applied nothing, or the batch
    // could not have been retried.
    if error.instanceTerminated { return .retry(notApplied: true) }
    // The server handled the commit, but its answer cannot be read, nor would it be again.
    if error.replyUnusable { return .rejected(outcomeUnknown: true) }
    if RetryClass.queuedCommit(repeatable: isIdempotent).allowsRetry(of: error, retryableCodes: []) {
      return .retry(notApplied: RetryClass.provesNotApplied(error), overloaded: RetryClass.isOverload(error))
    }
    return .rejected(outcomeUnknown: RetryClass.leavesOutcomeOpen(error.canonicalCode))
  }

}
