/// Order statistics of samples, defined as bench-peer's `stats.py` defines them, so that
/// Swift, Python and curl figures of one run are comparable.
enum Statistics {
  /// The median: the middle sample, or the mean of the two middle ones for an even count
  /// (Python's `statistics.median`). `nan` for no samples.
  static func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    let mid = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
  }

  /// The `p`th percentile by the nearest-rank method: the sample at rank ⌈p/100 · n⌉
  /// (`stats.pct`). `nan` for no samples.
  static func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    let rank = Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1
    return sorted[min(max(rank, 0), sorted.count - 1)]
  }

  /// A duration in milliseconds.
  static func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
  }
}
