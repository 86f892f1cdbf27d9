import FirestorePlatform
import FirestoreWire

/// Writes many documents fast and independently: not atomic, each write with its own
/// result, retried when it fails for a passing reason.
///
/// Queue writes with ``create(_:forDocument:)``, ``setData(_:forDocument:)``,
/// `updateData(_:forDocument:precondition:)` and ``deleteDocument(_:precondition:)``; each returns a
/// ``BulkWriteOperation`` whose ``BulkWriteOperation/result()`` reports that write alone.
/// The writer groups writes into `batchWrite` requests of up to
/// ``BulkWriterOptions/maximumBatchSize`` (20), keeps several requests in flight, paces them
/// with Firestore's 500/50/5 ramp-up (see ``BulkWriterOptions``) and retries a write that
/// failed with `aborted`, `unavailable` or `resourceExhausted` (and a delete that failed with
/// `internal`) with growing backoff, up to ``BulkWriterOptions/maximumAttempts`` attempts.
///
/// Guarantees:
/// - Writes to the same document are applied in the order they were queued: a document is
///   never written twice in one request, and a later write to it waits until the earlier
///   one has finished (retries included).
/// - No write is lost or applied twice: every operation ends with a result or an error. A
///   request-level failure is retried only when the server answered it (so nothing was
///   applied) or when the writes are safe to repeat.
/// - Writes to different documents may be applied in any order; one failing does not stop
///   the others.
///
/// Writes are sent when a batch is full, after ``BulkWriterOptions/partialBatchDelay``,
/// when one of their results is awaited, and by ``flush()`` and ``close()``.
///
/// ``onWriteResult(_:)`` hears of every write that succeeds, and ``onWriteError(_:)``
/// decides, for every failed attempt, whether the write is tried again (as the server SDKs'
/// bulk writers do).
///
/// ```swift
/// let writer = db.bulkWriter()
/// var operations: [BulkWriteOperation] = []
/// for user in users {
///   operations.append(try writer.setData(["name": user.name], forDocument: db.document("users/\(user.id)")))
/// }
/// await writer.close()   // waits for every write
/// for op in operations {
///   do { _ = try await op.result() } catch { print(op.document.path, error) }
/// }
/// ```
public final class BulkWriter: Sendable {
  /// One queued write.
  struct Item: Sendable {
    let sequence: Int
    let write: Write
    let operation: BulkWriteOperation
    let type: BulkWriterError.OperationType
    /// Failed attempts so far.
    var failures = 0
    var name: String { write.documentName }
  }

  private struct State {
    /// The batch being filled.
    var open: [Item] = []
    var openNames: Set<String> = []
    /// Bumped whenever the open batch is sealed, so a stale delayed send does nothing.
    var openGeneration = 0
    /// Sealed batches in sending order; retries go in front.
    var ready: [[Item]] = []
    /// Documents with a write in flight or waiting to be retried, with their counts.
    var busy: [String: Int] = [:]
    var requestsInFlight = 0
    var rateWakeScheduled = false
    var limiter: BulkWriterRateLimiter
    var closed = false
    var nextSequence = 0
    var unfinished: Set<Int> = []
    /// The lowest sequence number not yet finished (all below it have).
    var finishedBelow = 0
    var flushWaiters: [(upTo: Int, continuation: CheckedContinuation<Void, Never>)] = []
    var onWriteResult: (@Sendable (DocumentReference, WriteResult) -> Void)?
    var onWriteError: (@Sendable (BulkWriterError) -> Bool)?
  }

  /// The database the writer writes to.
  public let firestore: Firestore
  /// The options the writer was created with.
  public let options: BulkWriterOptions
  private let optionsError: FirestoreError?
  private let state: Locked<State>

  init(firestore: Firestore, options: BulkWriterOptions) {
    self.firestore = firestore
    self.options = options
    optionsError = options.validationError()
    state = Locked(State(limiter: BulkWriterRateLimiter(options: options)))
  }

  // MARK: - Queueing writes

  /// Creates a document; the write fails with `alreadyExists` if it exists.
  ///
  /// - Throws: ``FirestoreError`` `invalidArgument` for data Firestore cannot store (the
  ///   write is not queued), `failedPrecondition` after ``close()``.
  @discardableResult
  public func create(_ data: [String: any Sendable], forDocument document: DocumentReference) throws(FirestoreError)
    -> BulkWriteOperation
  {
    try enqueue(document, .create) { () throws(FirestoreError) in
      try WriteBuilder.set(document, data, merge: .none, precondition: .exists(false))
    }
  }

  /// Replaces (or creates) a document.
  ///
  /// - Throws: as ``create(_:forDocument:)``.
  @discardableResult
  public func setData(_ data: [String: any Sendable], forDocument document: DocumentReference) throws(FirestoreError)
    -> BulkWriteOperation
  {
    try enqueue(document, .set) { () throws(FirestoreError) in try WriteBuilder.set(document, data, merge: .none) }
  }

  /// Writes a document, merging into an existing one when `merge` is true.
  ///
  /// - Throws: as ``create(_:forDocument:)``.
  @discardableResult
  public func setData(_ data: [String: any Sendable], forDocument document: DocumentReference, merge: Bool) throws(FirestoreError)
    -> BulkWriteOperation
  {
    try enqueue(document, .set) { () throws(FirestoreError) in try WriteBuilder.set(document, data, merge: merge ? .all : .none) }
  }

  /// Writes only the listed fields of `data` into a document.
  ///
  /// - Throws: as ``create(_:forDocument:)``; also when a listed field is missing from `data`.
  @discardableResult
  public func setData(_ data: [String: any Sendable], forDocument document: DocumentReference, mergeFields: [any FieldPathConvertible])
    throws(FirestoreError) -> BulkWriteOperation
  {
    try enqueue(document, .set) { () throws(FirestoreError) in try WriteBuilder.set(document, data, mergeFields: mergeFields) }
  }

  /// Updates fields (dotted keys) of an existing document; the write fails with
  /// `notFound` if it is missing.
  ///
  /// - Throws: as ``create(_:forDocument:)``.
  @discardableResult
  public func updateData(
    _ fields: [String: any Sendable], forDocument document: DocumentReference, precondition: DocumentPrecondition? = nil
  ) throws(FirestoreError) -> BulkWriteOperation {
    try enqueue(document, .update) { () throws(FirestoreError) in
      try WriteBuilder.update(document, WriteBuilder.fieldPaths(fields), precondition: precondition?.wire)
    }
  }

  /// Updates fields, addressed by ``FieldPath``, of an existing document.
  ///
  /// - Throws: as ``create(_:forDocument:)``.
  @discardableResult
  public func updateData(
    _ fields: [FieldPath: any Sendable], forDocument document: DocumentReference, precondition: DocumentPrecondition? = nil
  ) throws(FirestoreError) -> BulkWriteOperation {
    try enqueue(document, .update) { () throws(FirestoreError) in
      try WriteBuilder.update(document, fields, precondition: precondition?.wire)
    }
  }

  /// Deletes a document (deleting a missing document succeeds, unless `precondition` says otherwise).
  ///
  /// - Throws: as ``create(_:forDocument:)``.
  @discardableResult
  public func deleteDocument(_ document: DocumentReference, precondition: DocumentPrecondition? = nil) throws(FirestoreError)
    -> BulkWriteOperation
  {
    try enqueue(document, .delete) { () throws(FirestoreError) in try WriteBuilder.delete(document, precondition: precondition?.wire) }
  }

  func enqueue(
    _ document: DocumentReference, _ type: BulkWriterError.OperationType, _ build: () throws(FirestoreError) -> Write
  ) throws(FirestoreError) -> BulkWriteOperation {
    if let optionsError { throw optionsError }
    guard document.firestore === firestore else {
      throw .invalidArgument("document \(document.path) belongs to another Firestore instance than this BulkWriter")
    }
    let write = try build()
    let operation = BulkWriteOperation(document: document)
    let (batchGeneration, delayedGeneration, sendNow) = try state.withLock { s throws(FirestoreError) -> (Int, Int?, Bool) in
      if s.closed { throw FirestoreError(.failedPrecondition, "this BulkWriter was closed; create a new one to write more") }
      // The server refuses a request that names a document twice: send what is there first.
      if s.openNames.contains(write.documentName) { seal(&s) }
      let item = Item(sequence: s.nextSequence, write: write, operation: operation, type: type)
      s.nextSequence += 1
      s.unfinished.insert(item.sequence)
      s.open.append(item)
      s.openNames.insert(item.name)
      let generation = s.openGeneration
      if s.open.count >= options.maximumBatchSize {
        seal(&s)
        return (generation, nil, true)
      }
      return (generation, s.open.count == 1 ? generation : nil, !s.ready.isEmpty)
    }
    // Only the write's own batch: one already sent (or waiting out a retry) leaves the
    // batch being filled to fill.
    operation.setOnWait { [weak self] in self?.sendOpenBatch(ifGeneration: batchGeneration) }
    if let delayedGeneration {
      let delay = options.partialBatchDelay
      Task {
        try? await Task.sleep(for: delay)
        self.sendOpenBatch(ifGeneration: delayedGeneration)
      }
    }
    if sendNow { pump() }
    return operation
  }

  /// Moves the open batch to the ready queue.
  private func seal(_ s: inout State) {
    guard !s.open.isEmpty else { return }
    s.ready.append(s.open)
    s.open = []
    s.openNames = []
    s.openGeneration += 1
  }

  /// Sends the open batch, if it is still the batch of `generation`.
  private func sendOpenBatch(ifGeneration generation: Int) {
    let sealed = state.withLock { s -> Bool in
      guard generation == s.openGeneration else { return false }
      guard !s.open.isEmpty else { return false }
      seal(&s)
      return true
    }
    if sealed { pump() }
  }

  // MARK: - Callbacks

  /// Calls `callback` with the document and result of every write that succeeds from now
  /// on, before its ``BulkWriteOperation/result()`` returns (replacing an earlier callback).
  ///
  /// It runs on the writer's own tasks, one write at a time per request; keep it short and
  /// do not wait in it.
  ///
  /// ```swift
  /// let written = Mutex(0)  // import Synchronization
  /// writer.onWriteResult { document, result in written.withLock { $0 += 1 } }
  /// ```
  public func onWriteResult(_ callback: @escaping @Sendable (DocumentReference, WriteResult) -> Void) {
    state.withLock { $0.onWriteResult = callback }
  }

  /// Lets `shouldRetry` decide, for every failed attempt from now on, whether the write is
  /// tried again (`true`, after a backoff) or fails with this error (`false`), replacing
  /// the writer's own rule (retry `aborted`, `unavailable` and `resourceExhausted`, up to
  /// ``BulkWriterOptions/maximumAttempts`` attempts).
  ///
  /// A write whose outcome is unknown (the connection broke after it was sent, and it is
  /// not safe to repeat) is never sent again, whatever the callback answers, so that no
  /// write is applied twice; the callback still hears of it. It runs on the writer's own
  /// tasks; keep it short and do not wait in it.
  ///
  /// ```swift
  /// writer.onWriteError { error in
  ///   if error.failedAttempts < 3 { return true }
  ///   log("giving up on \(error.document.path): \(error.message)")
  ///   return false
  /// }
  /// ```
  public func onWriteError(_ shouldRetry: @escaping @Sendable (BulkWriterError) -> Bool) {
    state.withLock { $0.onWriteError = shouldRetry }
  }

  // MARK: - Flushing and closing

  /// Sends every queued write and waits until all writes queued before the call have
  /// finished (succeeded, or failed after their retries).
  ///
  /// Never throws: each write reports its own outcome through its ``BulkWriteOperation``.
  /// Writes may be queued while a flush waits; it does not wait for them.
  public func flush() async {
    let limit = state.withLock { s -> Int in
      seal(&s)
      return s.nextSequence
    }
    pump()
    await withCheckedContinuation { continuation in
      let done = state.withLock { s -> Bool in
        if s.finishedBelow >= limit { return true }
        s.flushWaiters.append((limit, continuation))
        return false
      }
      if done { continuation.resume() }
    }
  }

  /// Flushes, and refuses further writes (they throw `failedPrecondition`). Calling it
  /// again only waits for the writes queued before.
  public func close() async {
    state.withLock { $0.closed = true }
    await flush()
  }

  // MARK: - Sending

  /// Starts every ready batch that the request limit, the rate and the per-document order allow.
  private func pump() {
    let clock = options.clock
    var batches: [[Item]] = []
    var wake: Duration?
    state.withLock { s in
      var blocked = Set<String>()
      var index = 0
      while index < s.ready.count && s.requestsInFlight < options.maximumConcurrentRequests {
        let batch = s.ready[index]
        // A batch touching a document with an earlier unfinished write waits for it.
        if batch.contains(where: { s.busy[$0.name] != nil || blocked.contains($0.name) }) {
          for item in batch { blocked.insert(item.name) }
          index += 1
          continue
        }
        if let wait = s.limiter.take(batch.count, at: clock.now()) {
          if !s.rateWakeScheduled {
            s.rateWakeScheduled = true
            wake = wait
          }
          break
        }
        s.ready.remove(at: index)
        s.requestsInFlight += 1
        for item in batch { s.busy[item.name, default: 0] += 1 }
        batches.append(batch)
      }
    }
    for batch in batches {
      Task { await self.send(batch) }
    }
    if let wake {
      Task {
        try? await clock.sleep(wake)
        self.state.withLock { $0.rateWakeScheduled = false }
        self.pump()
      }
    }
  }

  /// What became of one item after a request.
  private enum Verdict {
    case succeeded(WriteResult)
    /// The attempt failed; `safeToRepeat` is false when the write may have been applied.
    case failed(FirestoreError, safeToRepeat: Bool)
  }

  private func send(_ batch: [Item]) async {
    for item in batch { item.operation.recordAttempt() }
    let writes = batch.map(\.write)
    var verdicts: [Verdict] = []
    do {
      let reply = try await firestore.batchWrite(writes)
      guard reply.writeResults.count == writes.count, reply.status.count == writes.count else {
        let error = FirestoreError(
          .internal, "batchWrite returned \(reply.writeResults.count) results and \(reply.status.count) statuses for \(writes.count) writes"
        )
        // The request was applied somehow: what it did to each write is unknown.
        verdicts = batch.map { _ in .failed(error, safeToRepeat: false) }
        throw error
      }
      let latest = reply.writeResults.compactMap(\.updateTime).max() ?? Timestamp(seconds: 0, nanoseconds: 0)
      for (index, item) in batch.enumerated() {
        let status = reply.status[index]
        if status.code == 0 {
          let r = reply.writeResults[index]
          // A delete reports no update time; the latest time of the same reply stands in.
          let time = r.updateTime ?? latest
          let result = WriteResult(updateTime: time, commitTime: time, transformResults: r.transformResults)
          verdicts.append(.succeeded(result))
        } else {
          let code = FirestoreError.Code(rawValue: status.code) ?? .unknown
          let message = status.message.isEmpty ? "the write was refused" : status.message
          let error = FirestoreError(code, "write to \(item.operation.document.path) failed: \(message)")
          // A write with a non-OK status was not applied, so it may always be tried again.
          verdicts.append(.failed(error, safeToRepeat: true))
        }
      }
    } catch {
      if verdicts.isEmpty {
        let error = error as? FirestoreError ?? FirestoreError(.unknown, "batchWrite failed: \(error)")
        // An error the server answered with means nothing was applied; after a lost
        // connection only writes that are safe to repeat are sent again.
        let answered = error.httpStatus != nil || error.requestNotSent
        verdicts = batch.map { item in .failed(error, safeToRepeat: answered || WriteBuilder.isIdempotent([item.write])) }
      }
    }
    var retries: [Item] = []
    var finished: [(BulkWriteOperation, Result<WriteResult, FirestoreError>)] = []
    var backoff = Duration.zero
    let (onResult, onError) = state.withLock { ($0.onWriteResult, $0.onWriteError) }
    for (item, verdict) in zip(batch, verdicts) {
      var item = item
      switch verdict {
      case .succeeded(let result):
        onResult?(item.operation.document, result)
        finished.append((item.operation, .success(result)))
      case .failed(let error, let safeToRepeat):
        item.failures += 1
        var last = error
        let retry: Bool
        if let onError {
          let wanted = onError(
            BulkWriterError(error: error, document: item.operation.document, operationType: item.type, failedAttempts: item.failures))
          retry = wanted && safeToRepeat
        } else {
          retry = safeToRepeat && isRetryable(error, write: item.write) && item.failures < options.maximumAttempts
          if safeToRepeat && isRetryable(error, write: item.write) && !retry {
            last = error.with { $0.message = "\(error.message) (gave up after \(item.failures) attempts)" }
          }
        }
        if retry {
          backoff = max(backoff, self.backoff(afterFailures: item.failures, overloaded: RetryClass.isOverload(error)))
          retries.append(item)
        } else {
          finished.append((item.operation, .failure(last)))
        }
      }
    }
    let retried = Set(retries.map(\.sequence))
    let exhausted = Set(batch.map(\.sequence)).subtracting(retried)
    let waiters = state.withLock { s -> [CheckedContinuation<Void, Never>] in
      s.requestsInFlight -= 1
      for item in batch where exhausted.contains(item.sequence) {
        release(item.name, in: &s)
        s.unfinished.remove(item.sequence)
      }
      while s.finishedBelow < s.nextSequence && !s.unfinished.contains(s.finishedBelow) { s.finishedBelow += 1 }
      var due: [CheckedContinuation<Void, Never>] = []
      s.flushWaiters.removeAll { waiter in
        guard waiter.upTo <= s.finishedBelow else { return false }
        due.append(waiter.continuation)
        return true
      }
      return due
    }
    for (operation, outcome) in finished { operation.finish(outcome) }
    for waiter in waiters { waiter.resume() }
    if !retries.isEmpty {
      let clock = options.clock
      Task {
        try? await clock.sleep(backoff)
        self.state.withLock { s in
          for item in retries { self.release(item.name, in: &s) }
          s.ready.insert(retries, at: 0)
        }
        self.pump()
      }
    }
    pump()
  }

  private func release(_ name: String, in s: inout State) {
    if let count = s.busy[name], count > 1 { s.busy[name] = count - 1 } else { s.busy[name] = nil }
  }

  /// Whether a failed write is worth another attempt (see ``RetryClass/bulkWrite(isDelete:)``).
  private func isRetryable(_ error: FirestoreError, write: Write) -> Bool {
    guard case .delete = write.operation else {
      return RetryClass.bulkWrite(isDelete: false).allowsRetry(of: error, retryableCodes: [])
    }
    return RetryClass.bulkWrite(isDelete: true).allowsRetry(of: error, retryableCodes: [])
  }

  /// The wait before the next attempt: exponential in the failures so far (the longest at
  /// once for an overloaded server), with ±25 % jitter so that writes failed together do
  /// not come back together.
  private func backoff(afterFailures failures: Int, overloaded: Bool) -> Duration {
    Backoff(initial: options.initialBackoff, maximum: options.maximumBackoff, multiplier: options.backoffMultiplier)
      .wait(afterAttempt: failures, overloaded: overloaded)
  }

  /// Whether ``close()`` was called.
  var isClosed: Bool { state.withLock { $0.closed } }
}

extension Firestore {
  /// A new bulk writer: fast, non-atomic writes of many documents (see ``BulkWriter``).
  ///
  /// ```swift
  /// let writer = db.bulkWriter()
  /// try writer.setData(["n": 1], forDocument: db.document("counters/a"))
  /// await writer.close()
  /// ```
  public func bulkWriter(options: BulkWriterOptions = BulkWriterOptions()) -> BulkWriter {
    BulkWriter(firestore: self, options: options)
  }
}
