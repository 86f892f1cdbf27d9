import FirestoreWire
import Testing

@testable import FirestoreClient

@Suite("Paths and field paths")
struct PathTests {
  @Test("field paths are quoted in canonical form only where needed")
  func canonical() {
    #expect(FieldPath(["a", "b_1"]).canonicalString == "a.b_1")
    #expect(FieldPath(["my-field"]).canonicalString == "`my-field`")
    #expect(FieldPath(["a.b"]).canonicalString == "`a.b`")
    #expect(FieldPath(["back`tick", "back\\slash"]).canonicalString == "`back\\`tick`.`back\\\\slash`")
    #expect(FieldPath(["ünï"]).canonicalString == "`ünï`")
    #expect(FieldPath(["1st"]).canonicalString == "`1st`")
  }

  @Test("canonical form parses back")
  func parseCanonical() throws {
    for path in [FieldPath(["a", "b"]), FieldPath(["a.b", "c-d"]), FieldPath(["x`y\\z"]), FieldPath([" "])] {
      #expect(try FieldPath.parse(canonical: path.canonicalString) == path)
    }
  }

  @Test("dotted strings", arguments: ["a..b", ".a", "a.", "", "a~b", "a*b", "a/b", "a[0]"])
  func invalidDotted(text: String) {
    #expect(throws: FirestoreError.self) { try text.fieldPath() }
  }

  // Found by fuzzing (Fuzz/corpus/paths/crash-dot-combining-mark.txt): paths were split
  // and checked as Swift Characters, and a combining mark right after a "." or "/" forms
  // one Character with it, so the separator went unseen; the server splits on the byte.
  @Test("a separator followed by a combining mark separates, as on the server")
  func combiningMarks() throws {
    func scalars(_ path: FieldPath) -> [[UInt32]] { path.segments.map { $0.unicodeScalars.map(\.value) } }
    #expect(scalars(try "de.\u{301}ep2".fieldPath()) == [[0x64, 0x65], [0x301, 0x65, 0x70, 0x32]])
    #expect(throws: FirestoreError.self) { try "a/\u{301}b".fieldPath() }
    #expect(throws: FirestoreError.self) { try "a.__\u{301}x__".fieldPath() }
    #expect(try FieldPath.parse(canonical: FieldPath(["a", "\u{301}"]).canonicalString).segments.count == 2)

    let (db, _) = Offline.noNetwork()
    // Three segments for the server, so not a document path.
    #expect(db.document("c/a/\u{301}b").pathError != nil)
    #expect(db.collection("c/\u{301}d/e").path == "c/\u{301}d/e")
    #expect(db.collection("c").document("\u{301}d").parent.path == "c")
    // The server reserves "__\u{301}x__" (its bytes match __.*__).
    #expect(db.collection("c").document("__\u{301}x__").pathError != nil)
    // A name from the server with such an ID maps to the right reference.
    let ref = try db.reference(forName: "projects/p/databases/(default)/documents/c/\u{301}d")
    #expect(ref.parent.path == "c")
    #expect(ref.documentID.unicodeScalars.map(\.value) == [0x301, 0x64])
  }

  @Test("URL escaping keeps IDs intact")
  func escaping() {
    #expect(FirestoreRPC.get(ResourcePath(segments: ["c", "a b%c?d#e+f/é"])).path == "documents/c/a%20b%25c%3Fd%23e%2Bf%2F%C3%A9")
  }

  @Test("auto-IDs are 20 alphanumerics and differ")
  func autoIDs() {
    let ids = (0..<100).map { _ in AutoID.make() }
    #expect(Set(ids).count == 100)
    #expect(ids.allSatisfy { $0.count == 20 && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } })
  }

  @Test("references resolve relative slash paths and record bad ones")
  func references() {
    let (db, _) = Offline.noNetwork()
    #expect(db.collection("a/b/c").path == "a/b/c")
    #expect(db.collection("a").document("b/c/d").path == "a/b/c/d")
    #expect(db.document("/a/b/").path == "a/b")
    #expect(db.collection("a").document("b").parent.path == "a")
    #expect(db.collection("a").parent == nil)
    #expect(db.collection("a").document("b/c").pathError != nil)
    #expect(db.collection("a").document("b").collection("c").document("d").collection("e").parent?.path == "a/b/c/d")
    #expect(db.collection("a//b").pathError != nil)
    #expect(db.collectionGroup("a/b").recordedError != nil)
  }

  @Test("over-long and over-deep paths are rejected")
  func limits() {
    let (db, _) = Offline.noNetwork()
    let segment = String(repeating: "x", count: 1400)
    let long = db.collection(segment).document(segment).collection(segment).document(segment).collection(segment).document(segment)
    #expect(long.pathError?.message.contains("6144") == true)
    let deep = (0..<101).map { "c\($0)/d" }.joined(separator: "/")
    #expect(db.document(deep).pathError?.message.contains("segments") == true)
  }
}
