// Fuzz target: pipeline queries as the mock server reads them — the `executePipeline`
// request and reply (`ExecutePipelineRequest`, `ExecutePipelineResponse`, the request-only
// values in `PipelineExpression`), then the source stage (`PipelineInput`) and the stages
// the mock runs (`PipelineEvaluator`) over a few fixed documents.
//
// Properties: every accepted request, reply and value re-encodes to JSON that decodes to an
// equal value (see checkRoundTrip); evaluating never traps (integer overflow, ranges,
// recursion) and fails only with `invalidArgument` or `unimplemented`; no stage makes more
// rows than it was given, except that an aggregate without groups makes one.

import FirestoreEngine
import FirestoreWire

private let documents: [Document] = [
  Document(
    name: "projects/p/databases/(default)/documents/c/a",
    fields: [
      "n": .integer(Int64.max), "d": .double(-0.0), "s": .string("a_b%🌍"), "b": .boolean(true), "z": .null,
      "m": .map(["x": .integer(1), "v": .array([.integer(1), .double(.nan)])]),
    ]),
  Document(
    name: "projects/p/databases/(default)/documents/c/b",
    fields: ["n": .integer(Int64.min), "d": .double(.infinity), "s": .string(""), "b": .string("true")]),
  Document(name: "projects/p/databases/(default)/documents/c/c", fields: [:]),
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPipeline(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  guard let json = try? JSONParser.parse(bytes) else { return 0 }
  checkRoundTrip("ExecutePipelineRequest", json, decode: ExecutePipelineRequest.init(json:), encode: \.json)
  checkRoundTrip("PipelineExpression", json, decode: PipelineExpression.init(json:), encode: \.json)
  for element in json.arrayValue ?? [json] {
    checkRoundTrip("ExecutePipelineResponse", element, decode: ExecutePipelineResponse.init(json:), encode: \.json)
  }
  guard let request = try? ExecutePipelineRequest(json: json) else { return 0 }
  do {
    _ = try PipelineInput.of(request.stages)
    let rows = try PipelineEvaluator.run(request.stages, over: documents)
    require(rows.count <= documents.count, "a pipeline of \(request.stages.map(\.name)) made \(rows.count) rows from \(documents.count)")
  } catch {
    require(
      error.code == .invalidArgument || error.code == .unimplemented,
      "a pipeline failed with \(error.code), not invalidArgument or unimplemented: \(error.message)")
  }
  return 0
}
