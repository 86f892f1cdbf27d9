// firestore-bench: performance scenarios, run as `swift run -c release firestore-bench [scenario…]`.
//
// Scenarios:
//   mock-startup   MockFirestoreServer.start() until it has answered its first request
//                  (median and p95 over 50 starts).
//
// Figures are printed, never asserted: performance is measured here, not in tests.
import FirestoreMock
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The median and 95th percentile of durations, in milliseconds.
func summarize(_ samples: [Duration]) -> (median: Double, p95: Double) {
  let ms = samples.map { Double($0.components.seconds) * 1000 + Double($0.components.attoseconds) / 1e15 }.sorted()
  return (ms[ms.count / 2], ms[min(ms.count - 1, Int(Double(ms.count) * 0.95))])
}

/// Starts a mock server and waits for its first answer over a fresh connection.
func mockStartup() async throws -> Duration {
  let clock = ContinuousClock()
  let start = clock.now
  let server = try MockFirestoreServer.start()
  defer { server.stop() }
  let session = URLSession(configuration: .ephemeral)
  let (data, _) = try await session.data(from: URL(string: "http://\(server.hostAndPort)/")!)
  guard String(decoding: data, as: UTF8.self) == "Ok" else { throw CocoaError(.featureUnsupported) }
  return clock.now - start
}

let scenarios = CommandLine.arguments.dropFirst().isEmpty ? ["mock-startup"] : Array(CommandLine.arguments.dropFirst())
for scenario in scenarios {
  switch scenario {
  case "mock-startup":
    var samples: [Duration] = []
    for _ in 0..<5 { _ = try await mockStartup() }  // warm-up, not counted
    for _ in 0..<50 { samples.append(try await mockStartup()) }
    let (median, p95) = summarize(samples)
    print(String(format: "mock-startup: median %.2f ms, p95 %.2f ms (start() until the first answer; 50 runs)", median, p95))
  default:
    FileHandle.standardError.write(Data("unknown scenario \(scenario); known: mock-startup\n".utf8))
    exit(2)
  }
}
