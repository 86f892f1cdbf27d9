import FirestoreTestSupport
import Foundation
import Testing

extension CLITests {
  @Suite("firestore: demo")
  struct CLIDemoTests {
    /// The README's main command: with nothing configured it runs on an in-process mock
    /// server, exits 0 and reports at least 10× fewer round trips than one get per article.
    @Test("firestore demo runs on the embedded mock with no emulator configured")
    func demoOnEmbeddedMock() async throws {
      let result = try await CLI.run(["demo"])
      #expect(result.status == 0, "\(result)")
      try expectReport(result)
    }

    /// The same on the emulator, given the way the README gives it: FIRESTORE_EMULATOR_HOST.
    @Test("firestore demo runs on the emulator named by FIRESTORE_EMULATOR_HOST", .enabled(if: Backend.cli.contains(.emulator)))
    func demoOnEmulator() async throws {
      let project = Backend.emulator.project()
      let result = try await CLI.run(["demo", "--project", project], environment: ["FIRESTORE_EMULATOR_HOST": Backend.emulator.host])
      #expect(result.status == 0, "\(result)")
      try expectReport(result)
      #expect(result.stdout.contains("project \(project)"))
    }

    @Test("firestore demo refuses production and takes no arguments")
    func demoUsage() async throws {
      let production = try await CLI.run(["demo", "--credentials", "/nonexistent/key.json"])
      #expect(production.status == 1 || production.status == 2, "\(production)")
      let extra = try await CLI.run(["demo", "now"])
      #expect(extra.status == 2 && extra.stderr.contains("demo"), "\(extra)")
    }

    func expectReport(_ result: ProcessResult) throws {
      let ratioLine = try #require(result.lines.last { $0.hasSuffix("x fewer round trips") }, "\(result)")
      let ratio = try #require(Double(ratioLine.split(separator: "x").first ?? ""))
      #expect(ratio >= 10, "\(ratioLine)")
      #expect(result.stdout.contains("ArticleFeed (IDs + batchGet)"))
      #expect(result.stdout.contains("one get per article"))
    }
  }
}
