import FirestoreWire

/// Why a pipeline cannot run: `invalidArgument` for one the backend refuses,
/// `unimplemented` for a stage or function this evaluator does not run (named in the
/// message).
public struct PipelineEvaluationError: Error, Sendable, Equatable {
  /// The status code the backend answers with.
  public let code: RPCCode
  /// What is wrong, naming the stage or function.
  public let message: String

  /// An error with `code` and `message`.
  public init(_ code: RPCCode, _ message: String) {
    self.code = code
    self.message = message
  }

  static func invalid(_ message: String) -> Self { Self(.invalidArgument, message) }
}
