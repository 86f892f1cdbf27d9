import FirestorePlatform
import FirestoreTestSupport
import FirestoreWire
import Foundation
import Testing

@testable import FirestoreClient

/// Durations of centuries, NaN factors and absurd server numbers: every conversion to
/// milliseconds, nanoseconds or a `Duration` saturates instead of trapping.
@Suite("Huge and NaN durations do not trap")
struct HugeDurationTests {
  @Test("the conversions saturate")
  func conversions() {
    #expect(Duration.saturating(seconds: .nan) == .zero)
    #expect(Duration.saturating(seconds: 1e300) == .nanoseconds(Int64.max))
    #expect(Duration.saturating(seconds: -.infinity) == .nanoseconds(Int64.min))
    #expect(Duration.saturating(seconds: 1.5) == .milliseconds(1500))
    #expect(Duration.seconds(Int64.max).saturatingMilliseconds == .max)
    #expect(Duration.seconds(Int64.min).saturatingNanoseconds == .min)
    #expect(Duration.milliseconds(2500).saturatingMilliseconds == 2500)
  }

  @Test("backoff with huge or NaN settings stays a duration")
  func backoff() {
    for (initial, maximum, multiplier) in [
      (Duration.seconds(Int64.max), Duration.seconds(Int64.max), 2.0), (.seconds(1), .seconds(Int64.max), .infinity),
      (.seconds(1), .seconds(60), .nan), (.zero, .seconds(Int64.max), .infinity),
    ] {
      let backoff = Backoff(initial: initial, maximum: maximum, multiplier: multiplier)
      for attempt in [1, 2, 50] {
        let cap = backoff.cap(afterAttempt: attempt)
        #expect(cap >= .zero)
        #expect(Backoff.fullJitter(cap) <= cap)
        #expect(backoff.wait(afterAttempt: attempt, overloaded: false) >= .zero)
      }
    }
  }

  @Test("an explain reply with an absurd execution time is read")
  func explainDuration() {
    let metrics = ExplainMetrics(
      ExplainReport(indexesUsed: [], execution: .init(resultsReturned: 1, executionSeconds: 1e30, readOperations: 1)))
    #expect(metrics.executionStats?.executionDuration == .nanoseconds(Int64.max))
  }

  @Test("a call through libcurl with a timeout, connect timeout and backoff of centuries")
  func hugeSettings() async throws {
    let server = try RawHTTPServer { connection, index in
      while connection.readRequest() != nil {
        let (status, body) =
          index == 1
          ? ("503 Service Unavailable", #"{"error":{"code":503,"message":"later","status":"UNAVAILABLE"}}"#)
          : ("404 Not Found", #"{"error":{"code":404,"message":"no such document","status":"NOT_FOUND"}}"#)
        connection.write(
          "HTTP/1.1 \(status)\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)")
        return
      }
    }
    defer { server.stop() }
    let settings = FirestoreSettings.emulator(host: "127.0.0.1:\(server.url().port ?? 0)")
    settings.transport = CurlTransport(connectTimeout: .seconds(Int64.max))
    settings.timeout = .seconds(Int64.max)
    settings.retryPolicy = RetryPolicy(maximumAttempts: 3, initialBackoff: .seconds(Int64.max), maximumBackoff: .seconds(Int64.max))
    settings.retryPolicy.sleep = { _ in }
    let snapshot = try await Firestore(projectID: "p", settings: settings).document("c/d").getDocument(source: .server)
    #expect(!snapshot.exists)
    #expect(server.accepted == 2)
  }
}
