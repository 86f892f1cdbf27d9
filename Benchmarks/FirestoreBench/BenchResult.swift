import FirestoreWire

/// One row of the benchmark's output: a scenario's median and p95 over `n` runs, plus
/// figures of its own (CPU, bytes, round trips, memory...).
///
/// In the `--json` file it is one object:
/// `{"scenario": "query-full", "median_ms": 35.2, "p95_ms": 41.0, "n": 60, "cpu_ms": 12.1, ...}`.
struct BenchResult {
  /// The scenario key (`query-full`, `decode.json`, `reader.per-article`...).
  var scenario: String
  /// What was measured, for people.
  var label: String
  /// Timed runs (warm-ups excluded).
  var n: Int
  /// Median wall time per run, in milliseconds.
  var median: Double
  /// 95th percentile of the wall time, in milliseconds.
  var p95: Double
  /// Further figures, in output order: name (a JSON key in snake case) and value.
  var figures: [(key: String, value: Figure)] = []

  /// A figure's value.
  enum Figure {
    case number(Double)
    case integer(Int)
    case text(String)
    case flag(Bool)

    var json: JSONValue {
      switch self {
      case .number(let value): return value.isFinite ? .number(Self.format(value, decimals: 4)) : .null
      case .integer(let value): return .integer(Int64(value))
      case .text(let value): return .string(value)
      case .flag(let value): return .bool(value)
      }
    }

    /// `value` with at most `decimals` decimals, trailing zeros dropped (a JSON number).
    static func format(_ value: Double, decimals: Int) -> String {
      var text = String(format: "%.\(decimals)f", value)
      if text.contains(".") {
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
      }
      return text
    }
  }

  /// A result from timed runs: their median, p95 and count, and CPU per run as `cpu_ms`.
  init(scenario: String, label: String, measurement: Measurement) {
    self.init(scenario: scenario, label: label, samples: measurement.samples)
    figures.append(("cpu_ms", .number(measurement.cpuPerRun)))
  }

  /// A result from samples in milliseconds.
  init(scenario: String, label: String, samples: [Double]) {
    self.scenario = scenario
    self.label = label
    self.n = samples.count
    self.median = Statistics.median(samples)
    self.p95 = Statistics.percentile(samples, 95)
  }

  /// Adds a figure (replacing one of the same name).
  mutating func add(_ key: String, _ value: Figure) {
    figures.removeAll { $0.key == key }
    figures.append((key, value))
  }

  /// The figure named `key`.
  func figure(_ key: String) -> Figure? { figures.first { $0.key == key }?.value }

  /// The JSON object of this result.
  var json: JSONValue {
    var members: [(String, JSONValue)] = [
      ("scenario", .string(scenario)), ("label", .string(label)), ("median_ms", Figure.number(median).json),
      ("p95_ms", Figure.number(p95).json), ("n", .integer(Int64(n))),
    ]
    members += figures.map { ($0.key, $0.value.json) }
    return .object(members)
  }
}
