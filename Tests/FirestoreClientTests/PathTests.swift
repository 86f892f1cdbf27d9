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

  @Test("URL escaping keeps IDs intact")
  func escaping() {
    #expect(ResourcePath.escapeSegment("a b%c?d#e+f/é") == "a%20b%25c%3Fd%23e%2Bf%2F%C3%A9")
    #expect(ResourcePath.escapeSegment("AZaz09-._~") == "AZaz09-._~")
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
