import FirestoreClient
import FirestoreDemo
import FirestoreRepositories
import FirestoreWire

/// `firestore demo`: the repositories' end-to-end scenario (``DemoRunner``).
enum DemoCommand {
  static let command = Command(
    name: "demo", synopsis: "demo",
    summary: "Run the app-layer demo: article feed, detail navigator, profile states, favorites; print what it cost.",
    details: """
        Runs on an in-process mock server (nothing else needed), or on the emulator given by
        --emulator or FIRESTORE_EMULATOR_HOST. It writes sample data to collections of its own
        (demoArticles, demoMealPlans, users/demo-*), so it is safe to run again; it never runs
        against production. At the end it prints round trips, documents read and bytes
        received beside what one get per article would have cost on the same walk.

        firestore demo
        FIRESTORE_EMULATOR_HOST=127.0.0.1:8080 firestore demo
      """,
    options: [], arguments: 0...0, runsOnMockByDefault: true
  ) { context in
    guard let host = context.connection.mockServer?.hostAndPort ?? context.globals.emulatorHost else {
      throw context.usage("demo writes sample data: run it on --mock (the default) or an emulator, not production")
    }
    let runner = DemoRunner(projectID: context.db.projectID, settings: .emulator(host: host))
    let report = try await runner.run { line in StandardStreams.writeOutput(line + "\n") }
    StandardStreams.writeOutput("\n" + report.summary + "\n")
  }
}
