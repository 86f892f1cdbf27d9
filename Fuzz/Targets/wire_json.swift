// Fuzz target: the REST wire JSON — the JSON reader and writer, the streaming splitter of
// `:runQuery`/`:batchGet` arrays, and the decoders of every REST and Listen reply
// (Document, RunQueryResponse, BatchGetResponse, aggregation, commit, list pages,
// ListenResponse, the error body, single Values).
//
// Properties: the byte-level decoders (JSONReader; the client's hot reads) accept exactly
// what the tree decoders accept and give equal values; JSON that parses writes back to
// text that parses to the same JSON; every
// decoded reply re-encodes to JSON that decodes to an equal value (see checkRoundTrip);
// the array splitter yields the same elements whatever the chunking, and for a valid JSON
// array exactly its elements.

import FirestoreWire

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWireJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let parsed = try? JSONParser.parse(bytes)
  checkSplitter(bytes, parsed: parsed)
  checkByteDecoders(bytes, parsed: parsed)
  guard let json = parsed else { return 0 }

  let written = JSONWriter.bytes(json)
  do {
    let again = try JSONParser.parse(written)
    require(again == json, "JSON \(preview(bytes)) written as \(preview(written)) reads back differently")
    require(JSONWriter.bytes(again) == written, "JSON writing is not stable for \(preview(written))")
  } catch {
    fail("JSON \(preview(bytes)) written as \(preview(written)) does not parse: \(error)")
  }

  checkRoundTrip("Value", json, decode: Value.init(json:), encode: \.json)
  checkRoundTrip("Document", json, decode: Document.init(json:), encode: \.json)
  checkRoundTrip("ListenResponse", json, decode: ListenResponse.init(json:), encode: \.json)
  checkRoundTrip("ErrorBody", json, decode: ErrorBody.init(json:), encode: \.json)
  checkRoundTrip("CommitResponse", json, decode: CommitResponse.init(json:), encode: \.json)
  checkRoundTrip("ListDocumentsResponse", json, decode: ListDocumentsResponse.init(json:), encode: \.json)
  checkRoundTrip("ListCollectionIDsResponse", json, decode: ListCollectionIDsResponse.init(json:), encode: \.json)
  if let fields = json["fields"] {
    checkRoundTrip("fields", fields, decode: Value.fields(from:), encode: Value.json(fields:))
  }
  for element in json.arrayValue ?? [] {
    checkRoundTrip("RunQueryResponse", element, decode: RunQueryResponse.init(json:), encode: \.json)
    checkRoundTrip("BatchGetResponse", element, decode: BatchGetResponse.init(json:), encode: \.json)
    checkRoundTrip("RunAggregationQueryResponse", element, decode: RunAggregationQueryResponse.init(json:), encode: \.json)
  }
  return 0
}

/// What the splitter made of one way of feeding the input.
private struct SplitterRun: Equatable {
  var elements: [[UInt8]] = []
  var leadingObject: [UInt8]?
  var finished = false
  var failed = false
}

private func runSplitter(_ chunks: [ArraySlice<UInt8>]) -> SplitterRun {
  var splitter = JSONArrayStreamSplitter()
  var run = SplitterRun()
  for chunk in chunks {
    do {
      run.elements += try splitter.append(chunk)
    } catch {
      run.failed = true
      return run
    }
  }
  run.leadingObject = splitter.leadingObject
  run.finished = splitter.isFinished
  return run
}

private func checkSplitter(_ bytes: [UInt8], parsed: JSONValue?) {
  let whole = sameWhenSplit(bytes, "the splitter", failed: \.failed, feed: runSplitter)
  switch parsed {
  case .array(let elements):
    require(!whole.failed && whole.finished, "splitter rejects or does not finish the valid array \(preview(bytes))")
    require(whole.elements.count == elements.count, "splitter finds \(whole.elements.count) elements, the parser \(elements.count)")
    for (piece, element) in zip(whole.elements, elements) {
      require((try? JSONParser.parse(piece)) == element, "splitter element \(preview(piece)) is not the parsed element")
    }
  case .object(let members):
    require(!whole.failed && whole.finished, "splitter rejects or does not finish the valid object \(preview(bytes))")
    require(
      whole.leadingObject.flatMap { try? JSONParser.parse($0) } == .object(members),
      "splitter's leading object is not the parsed object for \(preview(bytes))")
  default:
    break
  }
}

/// The decoders that read straight from bytes must agree with parsing to a tree and
/// decoding that: the same value, or both refusing the input.
private func checkByteDecoders(_ bytes: [UInt8], parsed: JSONValue?) {
  func agree<T: Equatable>(_ what: String, _ fromBytes: (UnsafeBufferPointer<UInt8>) throws -> T, _ fromTree: (JSONValue) throws -> T) {
    let direct = try? bytes.withUnsafeBufferPointer { try fromBytes($0) }
    let viaTree = parsed.flatMap { try? fromTree($0) }
    require(
      direct == viaTree,
      "\(what) from bytes (\(String(describing: direct))) and via the tree (\(String(describing: viaTree))) differ for \(preview(bytes))")
  }
  agree("Document", Document.init(jsonBytes:), Document.init(json:))
  agree("runQuery reply", RunQueryResponse.decodeArray) { json in
    guard let elements = json.arrayValue else { throw WireFormatError("not an array") }
    return try elements.map(RunQueryResponse.init(json:))
  }
  agree("batchGet reply", BatchGetResponse.decodeArray) { json in
    guard let elements = json.arrayValue else { throw WireFormatError("not an array") }
    return try elements.map(BatchGetResponse.init(json:))
  }
  agree("commit reply", CommitResponse.init(jsonBytes:), CommitResponse.init(json:))
}
