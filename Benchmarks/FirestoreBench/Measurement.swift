/// The timed runs of one operation: wall time of each run, and the process CPU time of
/// all of them together.
struct Measurement {
  /// Wall time of each timed run, in milliseconds (warm-up runs are not here).
  var samples: [Double] = []
  /// Process CPU time (all threads) over the timed runs, in milliseconds.
  var cpuMilliseconds = 0.0

  /// Process CPU per timed run, in milliseconds.
  var cpuPerRun: Double { samples.isEmpty ? .nan : cpuMilliseconds / Double(samples.count) }

  /// Runs `operation` `warmup` times untimed, then `reps` times timed.
  ///
  /// The operation's own checks (a result count, say) throw; a failed run fails the
  /// measurement rather than being timed.
  static func run(warmup: Int, reps: Int, _ operation: () async throws -> Void) async throws -> Measurement {
    for _ in 0..<warmup { try await operation() }
    let clock = ContinuousClock()
    var measurement = Measurement()
    measurement.samples.reserveCapacity(reps)
    let cpu0 = ProcessCPUTime.now()
    for _ in 0..<reps {
      let start = clock.now
      try await operation()
      measurement.samples.append(Statistics.milliseconds(clock.now - start))
    }
    measurement.cpuMilliseconds = ProcessCPUTime.now() - cpu0
    return measurement
  }
}
