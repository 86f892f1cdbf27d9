// Fuzz target: the client's path parsers — slash-separated resource paths
// (ResourcePath.parse, behind collection(_:) and document(_:)), dotted field paths
// (FieldPath.parse(dotted:), behind every String field name), and the server's canonical
// field-path text (CanonicalFieldPath, back-quoted names).
//
// Properties: an accepted path splits into segments that hold no separator (compared as
// Unicode scalars, as the server splits them, not as Swift Characters, which can glue a
// combining mark onto a "/" or "."), that rejoin to the input, and that survive URL
// escaping; canonical text round-trips for every list of names, including names made
// of the characters that need quoting.

import FirestoreWire

@testable import FirestoreClient

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPaths(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let text = String(decoding: bytes, as: UTF8.self)

  checkResourcePath(text)
  checkDottedFieldPath(text)
  checkCanonical(text)
  // Names separated by NUL bytes: any list of names must survive canonical text.
  let names = text.unicodeScalars.split(separator: "\0", omittingEmptySubsequences: false).map { String(String.UnicodeScalarView($0)) }
  checkCanonicalNames(names)
  return 0
}

private func checkResourcePath(_ text: String) {
  guard let path = try? ResourcePath.parse(text, what: "path") else { return }
  require(!path.segments.isEmpty, "path \"\(text)\" parses to no segments")
  for segment in path.segments {
    require(!segment.isEmpty, "path \"\(text)\" has an empty segment")
    require(!segment.unicodeScalars.contains("/"), "path \"\(text)\" has segment \"\(segment)\" containing a slash")
    require(segment.utf8.count <= ResourcePath.maximumIDBytes, "path \"\(text)\" has an over-long segment")
    require(!isReserved(segment), "path \"\(text)\" has the reserved ID \"\(segment)\"")
    let escaped = PercentEncoding.encode(segment)
    require(
      !escaped.utf8.contains(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 >= 0x80 }),
      "segment \"\(segment)\" escapes to \"\(escaped)\"")
    require(
      PercentEncoding.decode(escaped.utf8, plusIsSpace: false).map { Array($0.utf8) } == Array(segment.utf8),
      "segment \"\(segment)\" escapes lossily")
  }
  var trimmed = Substring(text).unicodeScalars
  if trimmed.first == "/" { trimmed.removeFirst() }
  if trimmed.last == "/" { trimmed.removeLast() }
  require(path.string.unicodeScalars.elementsEqual(trimmed), "path \"\(text)\" rejoins as \"\(path.string)\"")
  guard let again = try? ResourcePath.parse(path.string, what: "path") else {
    fail("path \"\(text)\" rejoins as \"\(path.string)\", which does not parse")
  }
  require(again.segments == path.segments, "path \"\(text)\" parses differently the second time")
}

private func checkDottedFieldPath(_ text: String) {
  guard let path = try? FieldPath.parse(dotted: text) else { return }
  for name in path.segments {
    require(!name.isEmpty, "field path \"\(text)\" has an empty name")
    require(
      !name.unicodeScalars.contains { "~*/[].".unicodeScalars.contains($0) },
      "field path \"\(text)\" has the name \"\(name)\" with a separator or forbidden character")
    require(path.isDocumentID || !isReserved(name), "field path \"\(text)\" has the reserved name \"\(name)\"")
  }
  require(
    path.segments.joined(separator: ".").unicodeScalars.elementsEqual(text.unicodeScalars), "field path \"\(text)\" rejoins differently")
  checkCanonicalNames(path.segments)
}

private func checkCanonical(_ text: String) {
  guard let names = try? CanonicalFieldPath.decode(text) else { return }
  require(!names.isEmpty, "canonical \"\(text)\" decodes to no names")
  checkCanonicalNames(names)
}

/// Encoding `names` as canonical text and decoding it gives `names` back, scalar for scalar.
private func checkCanonicalNames(_ names: [String]) {
  guard !names.isEmpty else { return }
  let text = CanonicalFieldPath.encode(names)
  let back: [String]
  do {
    back = try CanonicalFieldPath.decode(text)
  } catch {
    fail("names \(names.map(scalars)) encode to \"\(text)\", which does not decode: \(error)")
  }
  require(
    back.map(scalars) == names.map(scalars), "names \(names.map(scalars)) encode to \"\(text)\", which decodes to \(back.map(scalars))")
  let parsed = try? FieldPath.parse(canonical: text)
  require(
    parsed?.segments.map(scalars) == names.map(scalars), "FieldPath.parse(canonical:) disagrees with CanonicalFieldPath for \"\(text)\"")
}

/// The scalars of `s` as code points, so that canonically equivalent but different
/// strings (which Swift's == calls equal) compare different.
private func scalars(_ s: String) -> [UInt32] { s.unicodeScalars.map(\.value) }

/// Firestore's rule for reserved IDs and field names: `__.*__`, on the bytes.
private func isReserved(_ name: String) -> Bool {
  let utf8 = Array(name.utf8)
  return utf8.count >= 4 && utf8.starts(with: [0x5F, 0x5F]) && utf8.reversed().starts(with: [0x5F, 0x5F])
}
