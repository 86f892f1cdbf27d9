// firestore-soak: listeners against a mock server for minutes on end, with writes every
// 100 ms and the Listen back channel cut every 20 s (see `SoakOptions.usage`).
//
//   scripts/soak.sh [SECONDS]     builds it and runs it (600 s by default)

import BenchmarkSupport
import Foundation

do {
  guard let options = try SoakOptions.parse(Array(CommandLine.arguments.dropFirst())) else {
    FileHandle.standardOutput.write(Data(SoakOptions.usage.utf8))
    exit(0)
  }
  let passed = try await Soak(options: options).run(mockServer: options.mockServer ?? MockServerProcess.siblingExecutable)
  exit(passed ? 0 : 1)
} catch let failure as ToolFailure {
  FileHandle.standardError.write(Data("error: \(failure)\n".utf8))
  exit(failure.isUsage ? 2 : 1)
} catch {
  FileHandle.standardError.write(Data("error: \(error)\n".utf8))
  exit(1)
}
