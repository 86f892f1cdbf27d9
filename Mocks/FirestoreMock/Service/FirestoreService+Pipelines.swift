import FirestoreEngine
import FirestoreWire

extension FirestoreService {
  /// `:executePipeline`, which production runs on databases of the Enterprise edition and
  /// the emulator of these machines does not (it answers 500). The mock runs the subset
  /// ``PipelineEvaluator`` knows, and answers `UNIMPLEMENTED`, naming the stage or
  /// function, for the rest. The reply streams one element per result, each with
  /// `executionTime` (one element without results when there are none); `explain_options`
  /// adds `explainStats` to the last element, and with mode `explain` the pipeline is
  /// only planned, so no results come back. Other options of the whole run are accepted
  /// and ignored.
  func executePipeline(_ request: MockHTTPRequest, _ route: RESTRoute) throws(MockError) -> MockHTTPResponse {
    guard route.segments.isEmpty else {
      throw .invalidArgument("executePipeline is a method of the database, not of a document.")
    }
    let parsed = try decode { try ExecutePipelineRequest(json: body(request)) }
    let explainMode = try Self.explainMode(parsed.options)
    let input = try Self.evaluating { () throws(PipelineEvaluationError) in try PipelineInput.of(parsed.stages) }
    let (documents, context) = try read(input, route.database, consistency: parsed.consistency)
    let results = try Self.evaluating { () throws(PipelineEvaluationError) in
      try PipelineEvaluator.run(parsed.stages, over: documents)
    }
    if let id = context.transaction {
      store.lock(results.compactMap { try? store.relativePath($0.name, db: route.database) }, transaction: id)
    }
    let returned = explainMode == "explain" ? [] : results
    var elements: [ExecutePipelineResponse] = returned.map {
      ExecutePipelineResponse(results: [$0], executionTime: context.readTime)
    }
    if elements.isEmpty { elements = [ExecutePipelineResponse(executionTime: context.readTime)] }
    elements[0].transaction = context.newTransaction
    if let explainMode {
      elements[elements.count - 1].explainStats = Self.explanation(
        parsed.stages, mode: explainMode, read: documents.count, returned: returned.count)
    }
    return Self.streamedArray(elements.map(\.json))
  }

  /// The documents the source stage names, read at the request's consistency.
  private func read(_ input: PipelineInput, _ db: String, consistency: ReadConsistency?) throws(MockError) -> (
    [Document], MockStore.ReadContext
  ) {
    switch input {
    case .collection(let parent, let collectionID):
      return try store.candidates(db, parent: parent, selectors: [.init(collectionID: collectionID)], consistency: consistency)
    case .collectionGroup(let collectionID):
      return try store.candidates(
        db, parent: "", selectors: [.init(collectionID: collectionID, allDescendants: true)], consistency: consistency)
    case .database:
      return try store.everyDocument(db, consistency: consistency)
    case .documents(let paths):
      guard Set(paths).count == paths.count else {
        throw .invalidArgument("The documents stage cannot name a document twice.")
      }
      let (found, context) = try store.get(db, paths: paths, consistency: consistency)
      return (found.compactMap(\.1), context)
    case .literals(let rows):
      // No document is read; only the read time (and a transaction) apply.
      let (_, context) = try store.get(db, paths: [], consistency: consistency)
      return (rows.map { Document(name: "", fields: $0) }, context)
    }
  }

  /// `explain_options.mode` (`analyze` unless given), or `nil` without explain options.
  private static func explainMode(_ options: [String: PipelineExpression]) throws(MockError) -> String? {
    guard let explain = options["explain_options"] else { return nil }
    guard case .constant(.map(let fields)) = explain else { throw .invalidArgument("explain_options must be a map.") }
    switch fields["mode"] {
    case nil: return "analyze"
    case .string(let mode)? where mode == "analyze" || mode == "explain": return mode
    default: throw .invalidArgument("explain_options.mode must be \"analyze\" or \"explain\".")
    }
  }

  /// A short plan: the stages in order and, when the pipeline ran, how many documents the
  /// source read and how many results came out.
  private static func explanation(_ stages: [PipelineStage], mode: String, read: Int, returned: Int) -> String {
    var lines = ["mode: \(mode)", "stages: " + stages.map(\.name).joined(separator: " -> ")]
    if mode == "analyze" { lines += ["documents read: \(read)", "results returned: \(returned)"] }
    return lines.joined(separator: "\n")
  }

  private static func evaluating<T>(_ body: () throws(PipelineEvaluationError) -> T) throws(MockError) -> T {
    do {
      return try body()
    } catch {
      throw MockError(error.code, error.message)
    }
  }
}
