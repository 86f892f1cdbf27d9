// firestore-bench: the performance scenarios, as a command line.
//
//   swift build -c release --product firestore-bench --product firestore-mock-server
//   .build/release/firestore-bench --help
//   .build/release/firestore-bench query-full get-all decode --emulator 127.0.0.1:8080 --json results.json
//
// Benchmarks/README.md has the whole procedure (seeding, the side-by-side run with the
// official Python client and curl). Figures are printed, never asserted: performance is
// measured here, not in tests.

import BenchmarkSupport
import FirestoreWire
import Foundation

/// Runs the scenarios the command line names; returns the process's exit status.
func runBench() async -> Int32 {
  do {
    guard let options = try BenchOptions.parse(Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
    else {
      print(BenchOptions.usage, terminator: "")
      return 0
    }
    print(
      "# firestore-bench \(options.scenarios.joined(separator: " ")); emulator \(options.emulator ?? "-"); load average "
        + ((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(separator: " ") ?? "-"))
    print(ResultTable.header, terminator: "")
    var results: [BenchResult] = []
    for name in options.scenarios {
      guard let scenario = ScenarioCatalog.scenario(name) else { throw ToolFailure.usage("unknown scenario \(name)") }
      let rows = try await scenario.run(options)
      // Each scenario's rows as soon as they are known: a long run shows progress.
      print(ResultTable.render(rows), terminator: "")
      results += rows
    }
    if let path = options.json {
      var text = JSONWriter.string(.array(results.map(\.json)))
      text += "\n"
      try text.write(toFile: path, atomically: true, encoding: .utf8)
    }
  } catch let failure as ToolFailure {
    FileHandle.standardError.write(Data("firestore-bench: \(failure)\n".utf8))
    if failure.isUsage { FileHandle.standardError.write(Data("(firestore-bench --help lists scenarios and options)\n".utf8)) }
    return failure.isUsage ? 2 : 1
  } catch {
    FileHandle.standardError.write(Data("firestore-bench: \(error)\n".utf8))
    return 1
  }
  return 0
}

// The main thread waits while the run goes on elsewhere and ends the process from there,
// rather than parking in Dispatch's main loop as a top-level `await` does: that loop waits
// in `sigsuspend`, which Valgrind 3.19 cannot follow, and under callgrind the run is then
// counted in instructions call by call (README, "Instructions per call").
Task.detached { exit(await runBench()) }
DispatchSemaphore(value: 0).wait()
