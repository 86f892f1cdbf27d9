import FirestoreClient

/// The shape of the request/response scenarios (queries, gets, writes): time an operation on a client
/// of the seeded emulator after warm-up runs, then count its wire cost once.
enum EmulatorScenario {
  /// Times `operation` (`countAtScaleOne` runs at bench-peer's `SCALE=1`, scaled by the
  /// options; `warmup` runs first) on one client with default settings, and adds the wire
  /// cost of one more run on a counting client.
  static func run(
    _ name: String, _ label: String, _ options: BenchOptions, countAtScaleOne: Int, warmup: Int,
    _ operation: @escaping (Firestore) async throws -> Void
  ) async throws -> BenchResult {
    let db = try PeerDataset.firestore(options)
    let measurement = try await Measurement.run(warmup: warmup, reps: options.runs(countAtScaleOne)) { try await operation(db) }
    var result = BenchResult(scenario: name, label: label, measurement: measurement)
    WireCost.record(try await WireCost.count(options, operation), in: &result)
    return result
  }
}
