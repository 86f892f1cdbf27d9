import CommandLineSupport
import FirestoreClient
import FirestoreWire
import Foundation

/// `firestore pipeline JSON|@FILE|- [--explain [--analyze]]`: runs a pipeline query given
/// in the REST shape, printing its results as `query` prints documents.
enum PipelineCommand {
  /// The largest pipeline read from a file or standard input: Firestore's request limit.
  static let maximumInputBytes = 10 * 1_048_576

  static let command = Command(
    name: "pipeline", synopsis: "pipeline JSON|@FILE|- [--explain [--analyze]]",
    summary: "Run a pipeline query (Enterprise edition) given as REST JSON; results print one NDJSON line each.",
    details: """
      JSON is an executePipeline request body ({"structuredPipeline":{"pipeline":{"stages":[…]}}}),
      its pipeline ({"stages":[…]}) or its list of stages; @FILE reads it from a file, - from
      standard input. A result that is a document prints as query prints one; a computed
      row (after select or aggregate) prints as {"data":{…}}.
      --explain prints the backend's plan as {"explain":"…"} without running the pipeline;
      with --analyze the pipeline also runs, its results print first.
      The emulator does not run pipelines; the mock runs a subset (see the Pipelines article).

        firestore pipeline '{"stages":[{"name":"collection","args":[{"referenceValue":"/books"}]},{"name":"limit","args":[{"integerValue":"5"}]}]}'
        firestore pipeline @report.json --explain --analyze
      """,
    options: [
      OptionSpec(OptionName.explain, help: "print the backend's plan instead of running the pipeline"),
      OptionSpec(OptionName.analyze, help: "with --explain: also run it and print its results first"),
    ],
    arguments: 1...1
  ) { context in
    let arguments = context.arguments
    if arguments.has(OptionName.analyze) && !arguments.has(OptionName.explain) { throw context.usage("--analyze needs --explain") }
    let request = try readRequest(context.positional(0), context)
    var explain: PipelineExplainOptions?
    if arguments.has(OptionName.explain) { explain = PipelineExplainOptions(mode: arguments.has(OptionName.analyze) ? .analyze : .explain) }
    var options: [String: any Sendable] = [:]
    for (key, value) in request.options { options[key] = value }
    let readTime: Timestamp?
    switch request.consistency {
    case .readTime(let time)?: readTime = time
    case nil: readTime = nil
    case .some: throw context.usage("a pipeline of the command line cannot run in a transaction")
    }
    let snapshot = try await context.db.pipeline(stages: request.stages).execute(
      readTime: readTime, explainOptions: explain, additionalOptions: options)
    for result in snapshot.results {
      if let ref = result.ref {
        context.emit(
          context.encoder.line(path: ref.path, createTime: result.createTime, updateTime: result.updateTime, fields: result.fields))
      } else {
        context.emit(.object([(context.globals.format.dataKey, context.encoder.fields(result.fields))]))
      }
    }
    if explain != nil { context.emit(.object([("explain", .string(snapshot.explainStats ?? ""))])) }
  }

  /// The request in `text`, `@FILE` or `-`: a whole body, a pipeline, or a list of stages.
  private static func readRequest(_ argument: String, _ context: CommandContext) throws -> ExecutePipelineRequest {
    let bytes: [UInt8]
    if argument == "-" {
      bytes = Array(try read(FileHandle.standardInput, what: "standard input", context))
    } else if argument.hasPrefix("@") {
      let path = String(argument.dropFirst())
      guard let handle = FileHandle(forReadingAtPath: path) else { throw context.usage("cannot open \(path)") }
      defer { try? handle.close() }
      bytes = Array(try read(handle, what: path, context))
    } else {
      bytes = Array(argument.utf8)
    }
    let json: JSONValue
    do {
      json = try JSONParser.parse(bytes)
    } catch {
      throw context.usage("the pipeline is not JSON: \(error)")
    }
    do {
      if case .array = json { return ExecutePipelineRequest(stages: try PipelineStage.stages(from: .object([("stages", json)]))) }
      if json["structuredPipeline"] != nil { return try ExecutePipelineRequest(json: json) }
      return ExecutePipelineRequest(stages: try PipelineStage.stages(from: json))
    } catch {
      throw context.usage("the pipeline is not in the REST shape: \(error)")
    }
  }

  private static func read(_ handle: FileHandle, what: String, _ context: CommandContext) throws -> Data {
    let data = try handle.read(upToCount: maximumInputBytes + 1) ?? Data()
    guard data.count <= maximumInputBytes else { throw context.usage("\(what) holds more than \(maximumInputBytes) bytes") }
    return data
  }
}
