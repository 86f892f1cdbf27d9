// Shared by every fuzz harness (compiled into each): the ways of splitting an input into
// chunks, and the check that turns a broken property into a libFuzzer crash.

import FirestoreWire

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Stops the run with `message` when `condition` is false: libFuzzer reports the abort as
/// a crash and saves the input.
func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
  guard condition() else { fail(message()) }
}

/// Stops the run with `message` (libFuzzer saves the input as a crash).
func fail(_ message: String) -> Never {
  var text = "fuzz property failed: \(message)\n"
  text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
  abort()
}

/// When `decode` accepts `json`, checks that the value survives the trip through its JSON
/// form: the encoding writes text that parses back to the same JSON, decodes to an equal
/// value, and encodes to the same text again (a decoder must never accept what the
/// encoder then cannot write, nor read it back differently).
func checkRoundTrip<T: Equatable>(
  _ what: String, _ json: JSONValue, decode: (JSONValue) throws -> T, encode: (T) -> JSONValue
) {
  guard let value = try? decode(json) else { return }
  let encoded = encode(value)
  let text = JSONWriter.bytes(encoded)
  let reparsed: JSONValue
  do {
    reparsed = try JSONParser.parse(text)
  } catch {
    fail("\(what): the written JSON \(preview(text)) does not parse: \(error)")
  }
  require(reparsed == encoded, "\(what): the written JSON \(preview(text)) parses to something else")
  let again: T
  do {
    again = try decode(reparsed)
  } catch {
    fail("\(what): \(value) encodes to \(preview(text)), which does not decode: \(error)")
  }
  require(again == value, "\(what): \(value) encodes to \(preview(text)), which decodes to \(again)")
  require(JSONWriter.bytes(encode(again)) == text, "\(what): encoding is not stable for \(preview(text))")
}

/// The input as fed to an incremental parser in three ways: whole, in tiny pieces, and in
/// pieces of mixed sizes. Split points come from a generator seeded by the input itself, so
/// every mutation of the input also moves them and a saved crash replays exactly.
///
/// The tiny pieces are single bytes for inputs up to 512 bytes and 1 to 4 bytes beyond
/// (feeding kilobytes byte by byte costs an allocation or more per byte, which under ASan
/// would dominate the run). The pieces are slices of `bytes`, not copies.
func splittings(_ bytes: [UInt8]) -> [[ArraySlice<UInt8>]] {
  let tiny = bytes.count <= 512 ? bytes.indices.map { bytes[$0..<$0 + 1] } : chunks(bytes, seed: 1) { next in 1 + next() % 4 }
  let mixed = chunks(bytes, seed: 2) { next in
    // Mostly short pieces (1 to 16 bytes), sometimes long ones, so that both splits inside
    // tokens and several whole units per piece are common.
    next() % 4 == 0 ? 1 + next() % 512 : 1 + next() % 16
  }
  return [[bytes[...]], tiny, mixed]
}

/// Feeds `bytes` to `feed` whole and in each of the ``splittings(_:)``, and requires every
/// split run to fail exactly when the whole run fails and, when it does not, to equal it.
/// (A run that fails may have returned more before the failing piece when split, so a
/// failure is compared as a failure only.) Returns the whole run.
func sameWhenSplit<Run: Equatable>(
  _ bytes: [UInt8], _ what: String, failed: (Run) -> Bool = { _ in false }, feed: ([ArraySlice<UInt8>]) -> Run
) -> Run {
  let runs = splittings(bytes).map(feed)
  let whole = runs[0]
  for run in runs.dropFirst() {
    require(failed(run) == failed(whole), "\(what) fails on \(preview(bytes)) only when split (whole: \(failed(whole)))")
    if !failed(whole) {
      require(run == whole, "\(what) gives something else for \(preview(bytes)) when split: \(run) vs \(whole)")
    }
  }
  return whole
}

/// A number derived from the input's content (FNV-1a), for choices a harness makes per
/// input, such as which request method a response answers.
func inputHash(_ bytes: [UInt8]) -> UInt64 {
  var hash: UInt64 = 0xcbf2_9ce4_8422_2325
  for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
  return hash
}

/// `bytes` cut into pieces whose sizes `size` draws from a SplitMix64 generator seeded
/// by the input's hash and `seed`.
private func chunks(_ bytes: [UInt8], seed: UInt64, size: (() -> UInt64) -> UInt64) -> [ArraySlice<UInt8>] {
  var state = inputHash(bytes) ^ seed
  func next() -> UInt64 {
    state &+= 0x9e37_79b9_7f4a_7c15
    var z = state
    z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
    z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
    return z ^ (z >> 31)
  }
  var pieces: [ArraySlice<UInt8>] = []
  var index = 0
  while index < bytes.count {
    let end = min(bytes.count, index + Int(size(next)))
    pieces.append(bytes[index..<end])
    index = end
  }
  return pieces
}

/// A hex dump prefix of `bytes`, for failure messages.
func preview(_ bytes: some Collection<UInt8>) -> String {
  let shown = bytes.prefix(64).map { byte in
    (0x20..<0x7F).contains(byte) && byte != UInt8(ascii: "\\") ? String(UnicodeScalar(byte)) : "\\x" + hex(byte)
  }
  return "\"" + shown.joined() + (bytes.count > 64 ? "…" : "") + "\" (\(bytes.count) bytes)"
}

private func hex(_ byte: UInt8) -> String {
  let digits = Array("0123456789abcdef")
  return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
}
