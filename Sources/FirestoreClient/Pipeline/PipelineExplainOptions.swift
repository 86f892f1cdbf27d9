/// Asks the backend to explain how it runs a pipeline, as the Python client's
/// `PipelineExplainOptions` does; the explanation is ``Pipeline/Snapshot/explainStats``.
public struct PipelineExplainOptions: Sendable, Equatable {
  /// What the backend does.
  public struct Mode: Sendable, Equatable, Hashable {
    /// The name the backend reads.
    public let rawValue: String

    /// Runs the pipeline and reports the plan with statistics of the run.
    public static let analyze = Mode(rawValue: "analyze")
    /// Plans the pipeline without running it.
    public static let explain = Mode(rawValue: "explain")
  }

  /// What the backend does.
  public var mode: Mode

  /// Options with `mode` (by default, ``Mode/analyze``).
  public init(mode: Mode = .analyze) { self.mode = mode }
}
