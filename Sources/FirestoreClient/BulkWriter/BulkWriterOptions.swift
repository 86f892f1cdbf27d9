/// How a ``BulkWriter`` batches, paces and retries its writes.
///
/// The defaults follow Firestore's guidance for bulk loads ("500/50/5"): start at 500
/// writes per second and allow 50 % more every 5 minutes, up to 10,000, so the database
/// can split its key ranges as the load grows; at most 20 writes per `batchWrite` request;
/// up to 10 attempts per write.
///
/// ```swift
/// var options = BulkWriterOptions()
/// options.initialOperationsPerSecond = 100     // start gently
/// options.maximumOperationsPerSecond = 1_000   // and never exceed this
/// let writer = db.bulkWriter(options: options)
///
/// let unthrottled = db.bulkWriter(options: .unlimited)   // e.g. against the emulator
/// ```
public struct BulkWriterOptions: Sendable {
  /// The starting rate, in writes per second; `nil` turns rate limiting off (then
  /// ``maximumOperationsPerSecond`` is ignored). Must be positive.
  public var initialOperationsPerSecond: Double?
  /// The rate the ramp-up stops at (10,000, as the server SDKs' bulk writers stop); `nil`
  /// lets it grow without bound. Must be positive; when below ``initialOperationsPerSecond``
  /// the writer starts at this rate.
  public var maximumOperationsPerSecond: Double?
  /// How often the allowed rate grows (5 minutes).
  public var rampUpInterval: Duration
  /// How much the allowed rate grows each ``rampUpInterval`` (1.5, i.e. +50 %); ≥ 1.
  public var rampUpFactor: Double
  /// Writes per `batchWrite` request, 1…20 (Firestore's bulk writers use 20).
  public var maximumBatchSize: Int
  /// `batchWrite` requests in flight at once, ≥ 1.
  public var maximumConcurrentRequests: Int
  /// Attempts per write, the first included, before a retryable failure is reported; ≥ 1.
  public var maximumAttempts: Int
  /// The wait before the first retry of a write.
  public var initialBackoff: Duration
  /// How much the wait grows with each further retry.
  public var backoffMultiplier: Double
  /// The longest wait between two attempts of a write.
  public var maximumBackoff: Duration
  /// How long a partly filled batch waits for more writes before it is sent anyway, so that
  /// a write is sent even when nobody calls ``BulkWriter/flush()``.
  public var partialBatchDelay: Duration
  /// The time source for pacing and backoff; replace it in tests.
  public var clock: BulkWriterClock

  /// The defaults: 500 writes/s growing by 50 % every 5 minutes up to 10,000, 20 writes
  /// per request, 10 requests in flight, 10 attempts with backoff from 1 s (×1.5, at most
  /// 60 s), partial batches sent after 10 ms.
  public init() {
    initialOperationsPerSecond = 500
    maximumOperationsPerSecond = 10_000
    rampUpInterval = .seconds(300)
    rampUpFactor = 1.5
    maximumBatchSize = 20
    maximumConcurrentRequests = 10
    maximumAttempts = 10
    initialBackoff = .seconds(1)
    backoffMultiplier = 1.5
    maximumBackoff = .seconds(60)
    partialBatchDelay = .milliseconds(10)
    clock = .continuous
  }

  /// The defaults with rate limiting turned off.
  public static var unlimited: BulkWriterOptions {
    var options = BulkWriterOptions()
    options.initialOperationsPerSecond = nil
    return options
  }

  /// The first problem with the options, named, or `nil` when they are usable.
  func validationError() -> FirestoreError? {
    if let rate = initialOperationsPerSecond, !(rate > 0 && rate.isFinite) {
      return .invalidArgument("BulkWriterOptions.initialOperationsPerSecond must be a positive number, got \(rate)")
    }
    if let rate = maximumOperationsPerSecond, !(rate > 0 && rate.isFinite) {
      return .invalidArgument("BulkWriterOptions.maximumOperationsPerSecond must be a positive number, got \(rate)")
    }
    if !(rampUpFactor >= 1 && rampUpFactor.isFinite) {
      return .invalidArgument("BulkWriterOptions.rampUpFactor must be at least 1, got \(rampUpFactor)")
    }
    if rampUpInterval <= .zero { return .invalidArgument("BulkWriterOptions.rampUpInterval must be positive, got \(rampUpInterval)") }
    if !(1...20).contains(maximumBatchSize) {
      return .invalidArgument("BulkWriterOptions.maximumBatchSize must be from 1 to 20, got \(maximumBatchSize)")
    }
    if maximumConcurrentRequests < 1 {
      return .invalidArgument("BulkWriterOptions.maximumConcurrentRequests must be at least 1, got \(maximumConcurrentRequests)")
    }
    if maximumAttempts < 1 { return .invalidArgument("BulkWriterOptions.maximumAttempts must be at least 1, got \(maximumAttempts)") }
    if !(backoffMultiplier >= 1 && backoffMultiplier.isFinite) {
      return .invalidArgument("BulkWriterOptions.backoffMultiplier must be at least 1, got \(backoffMultiplier)")
    }
    if initialBackoff < .zero || maximumBackoff < .zero || partialBatchDelay < .zero {
      return .invalidArgument("BulkWriterOptions: backoff and delay durations must not be negative")
    }
    return nil
  }
}
