import FirestoreWire

extension Pipeline {
  /// Runs the pipeline and returns all its results.
  ///
  /// - Throws: `invalidArgument` for an input the builder recorded as invalid, or for a
  ///   ``Subcollection`` run on its own, before any request; the backend's error otherwise
  ///   (a database of the Standard edition refuses pipelines; the emulator of Cloud SDK 528
  ///   answers `unknown`).
  public func execute() async throws -> Pipeline.Snapshot {
    try await execute(readTime: nil, explainOptions: nil, additionalOptions: [:])
  }

  /// Runs the pipeline with the options the Python client's `execute` takes.
  ///
  /// ```swift
  /// let explained = try await pipeline.execute(explainOptions: PipelineExplainOptions())
  /// print(explained.explainStats ?? "")
  /// ```
  ///
  /// - Parameters:
  ///   - readTime: reads the database as it was then.
  ///   - explainOptions: asks for an explanation, returned in ``Snapshot/explainStats``.
  ///   - additionalOptions: options of the whole run by backend name (snake case), sent
  ///     after `explain_options`, so that one given here wins.
  public func execute(
    readTime: Timestamp? = nil, explainOptions: PipelineExplainOptions? = nil, additionalOptions: [String: Sendable] = [:]
  ) async throws -> Pipeline.Snapshot {
    guard let firestore else {
      throw FirestoreError.invalidArgument("a Subcollection pipeline runs only inside another pipeline")
    }
    try firestore.checkServerReachable("the pipeline")
    let request = try request(
      firestore: firestore, readTime: readTime, explainOptions: explainOptions, additionalOptions: additionalOptions)
    // A reply without an execution time is malformed, reported as every malformed reply is.
    let (elements, executionTime) = try await firestore.rest.unary(RESTClient.Call(.executePipeline, body: request.json)) {
      bytes in
      guard case .array(let items) = try JSONParser.parse(bytes) else {
        throw WireFormatError("an executePipeline reply must be a JSON array")
      }
      let elements = try items.map(ExecutePipelineResponse.init(json:))
      guard let executionTime = elements.lazy.compactMap(\.executionTime).first else {
        throw WireFormatError("the executePipeline reply carried no executionTime")
      }
      return (elements, executionTime)
    }
    let results = elements.flatMap { $0.results.map { PipelineResult(document: $0, firestore: firestore) } }
    return Snapshot(results: results, executionTime: executionTime, explainStats: elements.last { $0.explainStats != nil }?.explainStats)
  }

  /// The request ``execute(readTime:explainOptions:additionalOptions:)`` sends; inside a
  /// transaction, `transaction` is its ID.
  func request(
    firestore: Firestore, readTime: Timestamp? = nil, transaction: String? = nil, explainOptions: PipelineExplainOptions? = nil,
    additionalOptions: [String: Sendable] = [:]
  ) throws(FirestoreError) -> ExecutePipelineRequest {
    let consistency = transaction.map(ReadConsistency.transaction) ?? readTime.map(ReadConsistency.readTime)
    let encoder = PipelineEncoder(firestore: firestore)
    var options: [String: PipelineExpression] = [:]
    if let explainOptions { options["explain_options"] = .map(["mode": .constant(.string(explainOptions.mode.rawValue))]) }
    for (key, value) in additionalOptions { options[key] = try encoder.encode(value: value) }
    return ExecutePipelineRequest(stages: try encodedStages(encoder), options: options, consistency: consistency)
  }
}
