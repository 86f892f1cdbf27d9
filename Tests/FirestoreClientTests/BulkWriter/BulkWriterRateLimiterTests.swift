import Testing

@testable import FirestoreClient

/// The 500/50/5 ramp-up and token bucket, computed on chosen times.
@Suite("Bulk writer rate limiter")
struct BulkWriterRateLimiterTests {
  @Test("500/50/5: 500 per second, 50 % more every 5 minutes, up to the cap")
  func rampUp() {
    var limiter = BulkWriterRateLimiter(options: BulkWriterOptions())
    #expect(limiter.take(1, at: .seconds(10)) == nil)  // the ramp starts with the first write
    #expect(limiter.rate(at: .seconds(10)) == 500)
    #expect(limiter.rate(at: .seconds(309)) == 500)
    #expect(limiter.rate(at: .seconds(310)) == 750)
    #expect(limiter.rate(at: .seconds(610)) == 1_125)
    #expect(limiter.rate(at: .seconds(910)) == 1_687.5)
    var options = BulkWriterOptions()
    options.maximumOperationsPerSecond = 1_000
    var capped = BulkWriterRateLimiter(options: options)
    _ = capped.take(1, at: .zero)
    #expect(capped.rate(at: .seconds(300)) == 750)
    #expect(capped.rate(at: .seconds(600)) == 1_000)
    #expect(capped.rate(at: .seconds(3_600)) == 1_000)
    var unlimited = BulkWriterRateLimiter(options: .unlimited)
    #expect(unlimited.rate(at: .zero) == nil)
    for _ in 0..<10_000 { #expect(unlimited.take(20, at: .zero) == nil) }
  }

  @Test("a full bucket of one second's writes, then waits that keep the rate")
  func tokenBucket() {
    var limiter = BulkWriterRateLimiter(options: BulkWriterOptions())
    for _ in 0..<25 { #expect(limiter.take(20, at: .zero) == nil) }  // 500 at once
    #expect(limiter.take(20, at: .zero) == .milliseconds(40))  // 20 more need 20/500 s
    #expect(limiter.take(20, at: .milliseconds(20)) == .milliseconds(20))
    #expect(limiter.take(20, at: .milliseconds(40)) == nil)
    // Idle time refills the bucket, but never past one second's worth.
    for _ in 0..<25 { #expect(limiter.take(20, at: .seconds(100)) == nil) }
    #expect(limiter.take(20, at: .seconds(100)) != nil)
  }

  @Test("a rate below the batch size still lets batches through, paying the debt after")
  func slowRate() {
    var options = BulkWriterOptions()
    options.initialOperationsPerSecond = 5
    var limiter = BulkWriterRateLimiter(options: options)
    #expect(limiter.take(20, at: .zero) == nil)  // a full bucket (5) lets a batch of 20 go
    // 15 writes of debt and 5 for the next batch: 20 / 5 per second = 4 s.
    #expect(limiter.take(20, at: .zero) == .seconds(4))
    #expect(limiter.take(20, at: .seconds(4)) == nil)
  }

  @Test("options are checked, each problem named")
  func optionValidation() {
    var options = BulkWriterOptions()
    #expect(options.validationError() == nil)
    options.initialOperationsPerSecond = 0
    #expect(options.validationError()?.message.contains("initialOperationsPerSecond") == true)
    options = BulkWriterOptions()
    options.rampUpFactor = 0.5
    #expect(options.validationError()?.message.contains("rampUpFactor") == true)
    options = BulkWriterOptions()
    options.maximumConcurrentRequests = 0
    #expect(options.validationError()?.message.contains("maximumConcurrentRequests") == true)
  }
}
