// Fuzz target: a WebChannel response body (handshake reply, back channel, forward reply)
// through WebChannelFrameParser, then each frame through WebChannelMessage and, for data
// messages, ListenResponse.
//
// Properties: the frames (and whether and where the stream fails, and whether it ends on a
// frame boundary) are the same whether the body arrives whole, in tiny pieces or in
// pieces that cut lengths, JSON and UTF-8 sequences; every frame written back by
// WebChannelFrameWriter (its length counted in UTF-16 units) parses to the same frame;
// decoded entries, forward replies and ListenResponses re-encode to equal values.

import FirestoreWire

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebChannel(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let whole = sameWhenSplit(bytes, "the frame parser", failed: \.failed, feed: parseFrames)
  if whole.failed { return 0 }

  // Writing the frames again and parsing that gives the same frames.
  let rewritten = whole.frames.flatMap { WebChannelFrameWriter.frame($0) }
  let reparsed = parseFrames([rewritten[...]])
  require(
    !reparsed.failed && reparsed.endsOnBoundary && reparsed.frames == whole.frames,
    "frames of \(preview(bytes)) written again as \(preview(rewritten)) parse differently")

  for frame in whole.frames {
    checkRoundTrip("WebChannelForwardReply", frame, decode: WebChannelForwardReply.init(json:), encode: \.json)
    guard let entries = try? WebChannelMessage.parse(frame: frame) else { continue }
    let json = WebChannelMessage.json(entries)
    guard let again = try? WebChannelMessage.parse(frame: json) else {
      fail("entries \(entries) of \(preview(bytes)) encode to \(JSONWriter.string(json)), which does not parse")
    }
    require(again == entries, "entries \(entries) encode to \(JSONWriter.string(json)), which parses to \(again)")
    for entry in entries {
      if case .data(let message) = entry.message {
        checkRoundTrip("ListenResponse", message, decode: ListenResponse.init(json:), encode: \.json)
      }
    }
  }
  return 0
}

/// What the parser made of one way of feeding the body.
private struct FrameRun: Equatable {
  var frames: [JSONValue] = []
  var failed = false
  var endsOnBoundary = false
}

private func parseFrames(_ chunks: [ArraySlice<UInt8>]) -> FrameRun {
  var parser = WebChannelFrameParser()
  var run = FrameRun()
  for chunk in chunks {
    do {
      run.frames += try parser.append(chunk)
    } catch {
      run.failed = true
      // A failed parser stays failed.
      require((try? parser.append([UInt8(ascii: "1")])) == nil, "the frame parser accepts input after failing")
      return run
    }
  }
  run.endsOnBoundary = (try? parser.finish()) != nil
  require(run.endsOnBoundary == parser.isAtFrameBoundary, "finish() and isAtFrameBoundary disagree")
  return run
}
