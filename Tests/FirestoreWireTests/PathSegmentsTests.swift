import Testing

@testable import FirestoreWire

@Suite("resource paths split and compared on their UTF-8 bytes")
struct PathSegmentsTests {
  @Test("segments split at every slash byte and keep empty ones")
  func segments() {
    #expect("".slashSegments == [""])
    #expect("a".slashSegments == ["a"])
    #expect("a//b".slashSegments == ["a", "", "b"])
    #expect("/a/".slashSegments == ["", "a", ""])
    #expect("articles/a0003".slashSegments == ["articles", "a0003"])
    // A combining mark after a slash joins it in one Character, not in the bytes.
    #expect("c/\u{301}d".slashSegments == ["c", "\u{301}d"])
    // Segments past a small string's inline size, and beyond ASCII.
    let long = String(repeating: "é", count: 40)
    #expect("users/\(long)/favorites/😀".slashSegments == ["users", long, "favorites", "😀"])
    // A substring splits as the string it shows.
    let name = "x/users/u1/favorites"
    #expect(name.dropFirst(2).slashSegments == ["users", "u1", "favorites"])
  }

  @Test("a byte prefix is compared on bytes, not Characters")
  func bytePrefix() {
    #expect("c/\u{301}d".hasBytePrefix("c/"))
    #expect(!"c/\u{301}d".hasPrefix("c/"))
    #expect("abc".hasBytePrefix(""))
    #expect("".hasBytePrefix(""))
    #expect(!"".hasBytePrefix("a"))
    #expect("abc".hasBytePrefix("abc"))
    #expect(!"ab".hasBytePrefix("abc"))
    #expect(!"abd".hasBytePrefix("abc"))
    let root = "projects/p/databases/(default)/documents"
    #expect("\(root)/users/u1".hasBytePrefix(root))
    #expect(!"\(root)/users/u1".hasBytePrefix(root + "x"))
    #expect("zz\(root)/a".dropFirst(2).hasBytePrefix(root.dropLast(3)))
  }

  @Test("the path below a root needs the root, a slash and something after it")
  func pathBelowRoot() {
    let root = "projects/p/databases/(default)/documents"
    #expect("\(root)/users/u1".pathBelow(root) == "users/u1")
    #expect("\(root)/c/\u{301}d".pathBelow(root) == "c/\u{301}d")
    #expect(root.pathBelow(root) == nil)
    #expect("\(root)/".pathBelow(root) == nil)
    #expect("\(root)x/users".pathBelow(root) == nil)
    #expect("projects/q/databases/(default)/documents/users".pathBelow(root) == nil)
    #expect("a/b".pathBelow("") == nil)
    #expect("/b".pathBelow("") == "b")
    #expect("zz\(root)/users".dropFirst(2).pathBelow(root[...]) == "users")
  }

  @Test("a name is the root, then each segment after a slash, and splits back into them")
  func nameFromSegments() {
    let root = "projects/p/databases/(default)/documents"
    #expect(String(root: root, slashSegments: []) == root)
    #expect(String(root: root, slashSegments: ["users", "u1"]) == "\(root)/users/u1")
    #expect(String(root: "", slashSegments: ["a"]) == "/a")
    #expect(String(root: "", slashSegments: []) == "")
    // Empty segments, a combining mark after the slash, and a segment past a small
    // string's inline size, beyond ASCII.
    let long = String(repeating: "é", count: 40)
    let segments = ["c", "\u{301}d", "", long, "😀"]
    let name = String(root: root, slashSegments: segments)
    #expect(name == root + "/" + segments.joined(separator: "/"))
    #expect(name.pathBelow(root)?.slashSegments == segments)
    #expect(name.utf8.count == root.utf8.count + segments.count + segments.reduce(0) { $0 + $1.utf8.count })
  }

  @Test("removing a byte prefix keeps what follows it, a combining mark included")
  func removingPrefix() {
    #expect("c/\u{301}d".removingBytePrefix("c/") == "\u{301}d")
    #expect("abc".removingBytePrefix("abc") == "")
    #expect("abc".removingBytePrefix("abd") == nil)
  }
}
