import FirestoreEngine
import FirestoreWire
import Testing

@testable import FirestoreClient

@Suite("Change indexes for reversed (limit(toLast:)) listens")
struct ChangeReplayTests {
  private func doc(_ id: String, _ second: Int = 1) -> Document {
    Document(
      name: "projects/p/databases/(default)/documents/c/\(id)", fields: [:],
      createTime: Timestamp(seconds: 0, nanoseconds: 0), updateTime: Timestamp(seconds: Int64(second), nanoseconds: 0))
  }

  private func run(_ old: [Document], _ new: [Document], _ kinds: [(FirestoreEngine.WatchChange.Kind, Document)]) -> [String] {
    ChangeReplay.changes(from: old, to: new, kinds: kinds.map { .init(kind: $0.0, document: $0.1, oldIndex: 9, newIndex: 9) })
      .map { "\($0.kind) \($0.document.name.split(separator: "/").last!) \($0.oldIndex)→\($0.newIndex)" }
  }

  @Test("a document pushed out at the front and one added at the back")
  func slide() {
    #expect(
      run([doc("b"), doc("c")], [doc("c"), doc("d")], [(.added, doc("d")), (.removed, doc("b"))]) == ["removed b 0→-1", "added d -1→1"])
  }

  @Test("a modification that moves a document replays from its old place")
  func move() {
    let old = [doc("a"), doc("b"), doc("c")]
    let new = [doc("b"), doc("c"), doc("a", 2)]
    #expect(run(old, new, [(.modified, doc("a", 2))]) == ["modified a 0→2"])
  }

  @Test("removals, additions and modifications together")
  func mixed() {
    let old = [doc("a"), doc("b"), doc("c")]
    let new = [doc("x"), doc("c", 2), doc("a")]
    let kinds: [(FirestoreEngine.WatchChange.Kind, Document)] = [(.modified, doc("c", 2)), (.removed, doc("b")), (.added, doc("x"))]
    #expect(run(old, new, kinds) == ["removed b 1→-1", "added x -1→0", "modified c 2→1"])
  }
}
