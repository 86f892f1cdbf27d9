// Fuzz target: the `firestore` command line's extended JSON (ExtendedJSON), which reads
// document data, values and write sentinels typed by users or read from import files.
//
// Properties: a value or document read from extended JSON prints (ExtendedJSON.encode)
// as text that reads back to the same value; reading a document as plain fields and as
// write input agree when it has no sentinels; and the extended JSON the CLI prints for
// any value the server can hold (REST JSON in the input) reads back to that value.

import FirestoreWire

private let root = "projects/fuzz/databases/(default)/documents"

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzExtendedJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  guard let json = try? JSONParser.parse(bytes) else { return 0 }

  checkRoundTrip(
    "ExtendedJSON value", json, decode: { try ExtendedJSON.decode($0, documentsRoot: root) },
    encode: { ExtendedJSON.encode($0, documentsRoot: root) })
  checkRoundTrip(
    "ExtendedJSON fields", json, decode: { try ExtendedJSON.decodeFields($0, documentsRoot: root) },
    encode: { ExtendedJSON.encode(fields: $0, documentsRoot: root) })

  let fields = try? ExtendedJSON.decodeFields(json, documentsRoot: root)
  let input = try? ExtendedJSON.decodeInput(json, documentsRoot: root)
  if let fields {
    require(input == fields.mapValues { .value($0) }, "decodeInput and decodeFields disagree on \(preview(bytes))")
  } else if let input {
    require(
      input.values.contains { $0.plainValue == nil },
      "decodeInput accepts \(preview(bytes)) without sentinels, decodeFields does not")
  }

  // What the CLI prints for server data must read back: REST values and documents.
  if let value = try? Value(json: json) { checkPrinted(value, bytes) }
  if let restFields = try? Value.fields(from: json["fields"]), json["fields"] != nil { checkPrinted(.map(restFields), bytes) }
  return 0
}

/// Checks that the extended JSON of `value` reads back to it, for values Firestore stores
/// (a geo point in range, a timestamp in years 1 to 9999, references that are document
/// names).
private func checkPrinted(_ value: Value, _ input: [UInt8]) {
  guard isStorable(value) else { return }
  let printed = ExtendedJSON.encode(value, documentsRoot: root)
  do {
    let back = try ExtendedJSON.decode(printed, documentsRoot: root)
    require(back == value, "\(value) prints as \(JSONWriter.string(printed)), which reads back as \(back)")
  } catch {
    fail("\(value) (from \(preview(input))) prints as \(JSONWriter.string(printed)), which does not read back: \(error)")
  }
}

private func isStorable(_ value: Value) -> Bool {
  switch value {
  case .geoPoint(let point): return point.isValid
  case .timestamp(let time): return time.isInFirestoreRange
  case .reference(let name): return isDocumentName(name)
  case .array(let elements): return elements.allSatisfy(isStorable)
  case .map(let fields): return fields.values.allSatisfy(isStorable)
  default: return true
  }
}

/// `projects/P/databases/D/documents/` and an even number of non-empty segments.
private func isDocumentName(_ name: String) -> Bool {
  let segments = name.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
  guard segments.count >= 7, segments.allSatisfy({ !$0.isEmpty }) else { return false }
  return segments[0].elementsEqual("projects".utf8) && segments[2].elementsEqual("databases".utf8)
    && segments[4].elementsEqual("documents".utf8) && (segments.count - 5) % 2 == 0
}
