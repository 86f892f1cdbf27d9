// Fuzz target: Firestore bundles (BundleReader, BundleElement), which a client loads from
// files and URLs it does not control.
//
// Properties: reading never consumes more than the input, and the byte counts of the
// elements read add up to where reading stopped; each element's JSON round-trips; the
// elements written back (length-prefixed) read back as the same elements with the same
// sizes; and a reader stops at the first malformed element, so the input up to there reads
// the same when cut right after it.

import FirestoreWire

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBundle(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  var reader = BundleReader(bytes)
  var elements: [BundleElement] = []
  var consumed = 0
  while true {
    let next: (element: BundleElement, byteCount: Int)?
    do {
      next = try reader.next()
    } catch {
      break
    }
    guard let (element, count) = next else { break }
    consumed += count
    require(consumed == reader.offset && consumed <= bytes.count, "element sizes do not add up to the offset in \(preview(bytes))")
    checkRoundTrip("BundleElement", element.json, decode: BundleElement.init(json:), encode: \.json)
    elements.append(element)
  }

  // Written back, the elements read back the same; every size is its prefix plus its JSON.
  let written = elements.map(\.lengthPrefixed)
  var again = BundleReader(written.flatMap { $0 })
  for (element, bytes) in zip(elements, written) {
    do {
      guard let (read, count) = try again.next() else { fail("written bundle ends early: \(preview(bytes))") }
      require(read == element && count == bytes.count, "\(element) written as \(preview(bytes)) reads back as \(read) (\(count) bytes)")
    } catch {
      fail("\(element) written as \(preview(bytes)) does not read back: \(error)")
    }
  }

  // The well-formed prefix alone reads the same elements.
  var prefix = BundleReader(Array(bytes[..<consumed]))
  var count = 0
  while let (element, _) = (try? prefix.next()) ?? nil {
    require(count < elements.count && element == elements[count], "the prefix of \(preview(bytes)) reads differently")
    count += 1
  }
  require(count == elements.count, "the prefix of \(preview(bytes)) reads \(count) elements, the whole \(elements.count)")
  return 0
}
