import FirestoreWire

extension Pipeline {
  /// What ``Pipeline/execute()`` returns: the results in the pipeline's order and the time
  /// they were read at.
  public struct Snapshot: Sendable {
    /// The results, in order.
    public let results: [PipelineResult]
    /// The time the results were read at.
    public let executionTime: Timestamp
    /// The explanation the backend wrote, when explain options asked for one (see
    /// ``Pipeline/execute(readTime:explainOptions:additionalOptions:)``).
    public let explainStats: String?
  }
}
