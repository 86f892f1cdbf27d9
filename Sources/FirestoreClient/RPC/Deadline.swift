import FirestorePlatform
import FirestoreWire

/// Runs an operation with a time limit: when the limit passes first, the call fails with
/// `deadlineExceeded` at once and the operation is cancelled.
///
/// The operation runs in a task of its own, so a transport that ignores cancellation
/// cannot hold the caller past the limit (a task group would wait for it). Cancelling the
/// caller cancels the operation and fails the call with `CancellationError`.
enum Deadline {
  /// The deadline of the call the current task works for, if any: token providers bound
  /// their own requests by it.
  @TaskLocal static var current: ContinuousClock.Instant?

  /// Sends `request` through `transport` and reads the response with `handle`, all by
  /// `deadline`, failing with `expired()` past it (made only then: most calls keep their
  /// deadline, and an error is not free to make).
  ///
  /// A transport that keeps deadlines itself (``Transport/enforcesDeadlines``) gets the
  /// deadline on the request and no timer runs here; for any other, ``run(_:expired:_:)``
  /// races the exchange against a timer.
  static func send<T: Sendable>(
    _ request: HTTPRequest, through transport: any Transport, by deadline: ContinuousClock.Instant,
    expired: @escaping @Sendable () -> FirestoreError, _ handle: @escaping @Sendable (HTTPResponse) async throws -> T
  ) async throws -> T {
    guard transport.enforcesDeadlines else {
      return try await run(deadline - .now, expired: expired()) { try await handle(try await transport.send(request)) }
    }
    var request = request
    request.deadline = deadline
    do {
      return try await handle(try await transport.send(request))
    } catch let error as FirestoreError where error.code == .deadlineExceeded && ContinuousClock.now >= deadline {
      throw expired()
    }
  }

  static func run<T: Sendable>(
    _ limit: Duration, what: @autoclosure () -> String, _ operation: @escaping @Sendable () async throws -> T
  ) async throws -> T {
    try await run(limit, expired: FirestoreError(.deadlineExceeded, "\(what()) did not finish within \(limit)"), operation)
  }

  /// Runs `operation`, failing with `expired` when `limit` passes first.
  static func run<T: Sendable>(
    _ limit: Duration, expired: @autoclosure () -> FirestoreError, _ operation: @escaping @Sendable () async throws -> T
  ) async throws -> T {
    let expired = expired()
    let race = Race<T>()
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
        race.begin(
          continuation,
          work: Task {
            do {
              race.settle(.success(try await operation()))
            } catch {
              race.settle(.failure(error))
            }
          },
          timer: Task {
            guard (try? await Task.sleep(for: limit)) != nil else { return }
            race.settle(.failure(expired))
          })
      }
    } onCancel: {
      race.settle(.failure(CancellationError()))
    }
  }
}

/// The first of the operation, the timer and the caller's cancellation to finish settles
/// the call; the other two are then cancelled.
private final class Race<T: Sendable>: Sendable {
  private struct State {
    var continuation: CheckedContinuation<T, any Error>?
    var outcome: Result<T, any Error>?
    var tasks: [Task<Void, Never>] = []
  }

  private let state = Locked(State())

  /// Installs the continuation and the racing tasks; settles at once if the caller was
  /// already cancelled.
  func begin(_ continuation: CheckedContinuation<T, any Error>, work: Task<Void, Never>, timer: Task<Void, Never>) {
    let early: Result<T, any Error>? = state.withLock { s in
      if let outcome = s.outcome { return outcome }
      s.continuation = continuation
      s.tasks = [work, timer]
      return nil
    }
    if let early {
      work.cancel()
      timer.cancel()
      continuation.resume(with: early)
    }
  }

  /// Settles the call with `outcome` unless it is settled already.
  func settle(_ outcome: Result<T, any Error>) {
    let (continuation, tasks): (CheckedContinuation<T, any Error>?, [Task<Void, Never>]) = state.withLock { s in
      guard s.outcome == nil else { return (nil, []) }
      s.outcome = outcome
      defer {
        s.continuation = nil
        s.tasks = []
      }
      return (s.continuation, s.tasks)
    }
    for task in tasks { task.cancel() }
    continuation?.resume(with: outcome)
  }
}
