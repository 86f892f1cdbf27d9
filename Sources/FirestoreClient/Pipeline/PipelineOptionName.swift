/// An option given by name (a time unit, a granularity, a part of a time), which a
/// function receives as a string.
protocol PipelineOptionName: Sendable {
  /// The name the backend reads.
  var rawValue: String { get }
}
