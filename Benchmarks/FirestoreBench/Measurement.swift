/// The timed runs of one operation: wall time of each run, and the process CPU time of
/// all of them together.
struct Measurement {
  /// Wall time of each timed run, in milliseconds (warm-up runs are not here).
  var samples: [Double] = []
  /// Process CPU time (all threads) over the timed runs, in milliseconds.
  var cpuMilliseconds = 0.0

  /// Process CPU per timed run, in milliseconds.
  var cpuPerRun: Double { samples.isEmpty ? .nan : cpuMilliseconds / Double(samples.count) }

  /// Runs `operation` `warmup` times untimed, then `reps` times timed, each timed run
  /// after `before`, which is neither timed nor counted in the CPU time.
  ///
  /// The operation's own checks (a result count, say) throw; a failed run fails the
  /// measurement rather than being timed.
  static func run(
    warmup: Int, reps: Int, before: (() -> Void)? = nil, _ operation: () async throws -> Void
  ) async throws -> Measurement {
    for _ in 0..<warmup { try await operation() }
    let clock = ContinuousClock()
    var measurement = Measurement()
    measurement.samples.reserveCapacity(reps)
    var beforeCPU = 0.0
    let cpu0 = ProcessCPUTime.now()
    for _ in 0..<reps {
      if let before {
        let started = ProcessCPUTime.now()
        before()
        beforeCPU += ProcessCPUTime.now() - started
      }
      let start = clock.now
      try await operation()
      measurement.samples.append(Statistics.milliseconds(clock.now - start))
    }
    measurement.cpuMilliseconds = ProcessCPUTime.now() - cpu0 - beforeCPU
    return measurement
  }
}
