import FirestoreClient
import FirestoreDemo
import FirestorePlatform
import FirestoreRepositories
import FirestoreTestSupport
import FirestoreWire
import Foundation
import Testing

/// The `firestore demo` scenario end to end, on the mock and the emulator.
@Suite("Repositories: the demo")
struct DemoRunnerTests {
  @Test("the demo runs to the end, twice, and walks the feed with ≥ 10× fewer round trips", arguments: Backend.all)
  func demo(_ backend: Backend) async throws {
    Ledger.record(backend)
    // A project of its own: the demo's collections have fixed names.
    let projectID = "demo-run-\(UInt32.random(in: 0...UInt32.max))"
    let settings = backend.settings()
    settings.timeout = hangLimit
    let lines = Locked([String]())
    let runner = DemoRunner(projectID: projectID, settings: settings)
    let report = try await runner.run { line in lines.withLock { $0.append(line) } }
    let output = lines.withLock { $0 }.joined(separator: "\n")

    #expect(report.articlesWalked == 63)  // #0...#59 and three steps back
    #expect(report.missingArticles == 1)
    #expect(report.feed.roundTrips == 4, "\(report.summary)")  // 1 ID query + 3 batchGets
    #expect(report.onePerArticle.roundTrips >= 10 * report.feed.roundTrips, "\(report.summary)")
    #expect(report.onePerArticle.bytesReceived > report.feed.bytesReceived)
    #expect(report.feed.documentsRead == 60 + 59)
    #expect(report.onePerArticle.roundTrips == 61)
    #expect(report.onePerArticle.documentsRead == 120)
    #expect(report.summary.contains("round trips"))
    #expect(report.profileStates.first == "loading")
    #expect(report.profileStates.contains { $0.hasPrefix("loading(cached: Ada Reader)") })
    #expect(report.profileStates.last == "failed(NOT_FOUND)")
    #expect(report.profileStates.filter { $0.hasPrefix("failed") }.count == 1)
    #expect(report.favoritesUpdates >= 4)
    #expect(output.contains("reported missing"))
    #expect(output.contains("another device starred pho"))
    #expect(output.contains("Lasagna ★(pending)"))  // latency compensation
    #expect(output.contains("list paged to 40 rows, all from the cache"))  // visibility prefetch
    if ProcessInfo.processInfo.environment["DEMO_PRINT"] != nil { print(output) }
    #expect(output.contains("navigator back at #0"))

    // Safe to re-run: the same data, the same walk.
    let again = try await runner.run { _ in }
    // (Bytes may differ by a few: read times are printed with as many digits as they need.)
    #expect(again.feed.roundTrips == report.feed.roundTrips && again.feed.documentsRead == report.feed.documentsRead)
    #expect(again.missingArticles == 1)
  }
}
