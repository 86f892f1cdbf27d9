import FirestoreTestSupport
import FirestoreWire
import Foundation
import Testing

extension CLITests {
  @Suite("firestore: progress on a terminal")
  struct CLIProgressTests {
    /// Runs a shell command line under `script`, which gives it a terminal, and returns what
    /// the terminal showed.
    private func onTerminal(_ commandLine: String) async throws -> ProcessResult {
      let script = "/usr/bin/script"
      try #require(FileManager.default.isExecutableFile(atPath: script), "util-linux script(1) is needed to give the CLI a terminal")
      return try await RunningProcess.run(
        URL(fileURLWithPath: script), ["-qec", commandLine, "/dev/null"], environment: CLI.environment([:]))
    }

    @Test("import and export draw a progress line (count, rate, ETA) only when stderr is a terminal, then erase it")
    func progress() async throws {
      let lines = (0..<1_500).map { #"{"path":"m/d\#(String(format: "%05d", $0))","data":{"i":\#($0)}}"# }.joined(separator: "\n")
      let file = try temporaryFile(lines + "\n")
      defer { removeTemporaryFile(file) }
      let exe = CLI.executable.path
      // stderr to the terminal, stdout away: only the progress line reaches the terminal.
      let imported = try await onTerminal("'\(exe)' --mock import --input '\(file)' 2>&1 >/dev/null")
      #expect(imported.status == 0, "\(imported)")
      // Counted as writes are confirmed, so which counts are drawn depends on timing.
      #expect(imported.stdout.contains("\rimported "), "\(imported.stdout)")
      #expect(imported.stdout.contains("/1500 documents, "), "\(imported.stdout)")
      #expect(imported.stdout.contains("/s"))
      #expect(imported.stdout.hasSuffix("\r"), "the line is erased at the end")
      let exported = try await onTerminal("'\(exe)' --mock --mock-data '\(file)' export m 2>&1 >/dev/null")
      #expect(exported.stdout.contains("\rexported "), "\(exported.stdout)")
      #expect(exported.stdout.contains("/1500 documents"), "\(exported.stdout)")
      // The same commands with stderr on a pipe print nothing there.
      let quiet = try await CLI.run(["--mock", "import", "--input", file])
      #expect(quiet.stderr.isEmpty)
      #expect(quiet.json == [.parse(#"{"written":1500,"skipped":0}"#)])
    }
  }
}
