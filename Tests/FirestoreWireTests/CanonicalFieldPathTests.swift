import Testing

@testable import FirestoreWire

@Suite("Canonical field paths (the server's text form)")
struct CanonicalFieldPathTests {
  /// The code points of each name: Swift's `==` calls canonically equivalent strings equal,
  /// the server does not.
  private func scalars(_ names: [String]) -> [[UInt32]] { names.map { $0.unicodeScalars.map(\.value) } }

  @Test("plain identifiers stay bare, everything else is back-quoted with escapes")
  func encoding() {
    #expect(CanonicalFieldPath.encode(["a", "b_1"]) == "a.b_1")
    #expect(CanonicalFieldPath.encode(["a.b", "my-field", ""]) == "`a.b`.`my-field`.``")
    #expect(CanonicalFieldPath.encode(["x`y\\z"]) == "`x\\`y\\\\z`")
  }

  // The bug class the paths fuzz target found in dotted field paths
  // (Fuzz/corpus/paths/crash-dot-combining-mark.txt): reading and writing went by Swift
  // Characters, and a combining mark after a back-quote, backslash or dot forms one
  // Character with it, which hid the quote or the separator.
  @Test(
    "names with combining marks after quotes, escapes and dots survive the round trip",
    arguments: [
      ["a", "\u{301}"], ["`\u{301}"], ["\\\u{301}"], ["a.\u{301}b"], ["\u{301}", "\u{301}"], ["x`\u{308}y", "z\\\u{300}"],
    ])
  func combiningMarks(names: [String]) throws {
    let text = CanonicalFieldPath.encode(names)
    #expect(scalars(try CanonicalFieldPath.decode(text)) == scalars(names), "\(text)")
  }

  @Test("a dot followed by a combining mark still separates names")
  func dotSeparates() throws {
    #expect(scalars(try CanonicalFieldPath.decode("a.\u{301}b")) == scalars(["a", "\u{301}b"]))
    #expect(scalars(try CanonicalFieldPath.decode("`a`.\u{301}")) == scalars(["a", "\u{301}"]))
  }
}
