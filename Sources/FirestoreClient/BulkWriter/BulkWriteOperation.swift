import FirestorePlatform
import FirestoreWire

/// One write queued on a ``BulkWriter``: await ``result()`` for its outcome.
///
/// Every operation ends exactly once, with the write's ``WriteResult`` or the error that
/// stopped it (after the writer's retries). Awaiting the result of a write that still sits
/// in a partly filled batch sends that batch at once.
///
/// ```swift
/// let op = try writer.create(["name": "Ada"], forDocument: db.document("users/ada"))
/// do {
///   let result = try await op.result()
///   print("written at", result.updateTime)
/// } catch let error as FirestoreError where error.code == .alreadyExists {
///   print("ada was there already")
/// }
/// ```
public final class BulkWriteOperation: Sendable {
  private struct State {
    var outcome: Result<WriteResult, FirestoreError>?
    var waiters: [CheckedContinuation<Result<WriteResult, FirestoreError>, Never>] = []
    var attempts = 0
    /// Called on the first wait while the write is unsent; dropped once the write ends.
    var onWait: (@Sendable () -> Void)?
  }

  /// The document the write goes to.
  public let document: DocumentReference
  private let state = Locked(State())

  init(document: DocumentReference) {
    self.document = document
  }

  /// Waits for the write to finish and returns its result.
  ///
  /// Cancelling the waiting task does not cancel the write, and the call keeps waiting for
  /// it: once queued, a write always runs to its end.
  ///
  /// - Throws: ``FirestoreError``: the server's error for this write (e.g. `alreadyExists`
  ///   for a ``BulkWriter/create(_:forDocument:)`` of an existing document, `notFound` for
  ///   an update of a missing one), or the last retryable error once
  ///   ``BulkWriterOptions/maximumAttempts`` attempts failed.
  public func result() async throws(FirestoreError) -> WriteResult {
    let outcome = await withCheckedContinuation { continuation in
      let (ready, onWait) = state.withLock { s -> (Result<WriteResult, FirestoreError>?, (@Sendable () -> Void)?) in
        if let outcome = s.outcome { return (outcome, nil) }
        s.waiters.append(continuation)
        let onWait = s.onWait
        s.onWait = nil
        return (nil, onWait)
      }
      if let ready { continuation.resume(returning: ready) }
      onWait?()
    }
    return try outcome.get()
  }

  /// Whether the write has finished (succeeded or failed).
  public var isFinished: Bool { state.withLock { $0.outcome != nil } }

  /// How many times the write was sent so far.
  public var attempts: Int { state.withLock { $0.attempts } }

  /// Whether a caller of ``result()`` is waiting, for tests.
  var isAwaited: Bool { state.withLock { !$0.waiters.isEmpty } }

  func setOnWait(_ action: @escaping @Sendable () -> Void) {
    state.withLock { $0.onWait = action }
  }

  func recordAttempt() {
    state.withLock { $0.attempts += 1 }
  }

  /// Ends the operation; later calls are ignored (an operation ends once).
  func finish(_ outcome: Result<WriteResult, FirestoreError>) {
    let waiters = state.withLock { s -> [CheckedContinuation<Result<WriteResult, FirestoreError>, Never>] in
      guard s.outcome == nil else { return [] }
      s.outcome = outcome
      s.onWait = nil
      defer { s.waiters = [] }
      return s.waiters
    }
    for waiter in waiters { waiter.resume(returning: outcome) }
  }
}
