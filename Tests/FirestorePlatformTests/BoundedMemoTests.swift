import FirestorePlatform
import Testing

/// ``BoundedMemo``: a value made once per key, a failure never kept, emptied when full.
@Suite("Platform: bounded memo")
struct BoundedMemoTests {
  private struct Refused: Error {}

  @Test("a key's value is made once and then found")
  func madeOnce() {
    let memo = BoundedMemo<String, Int>(limit: 4)
    var made = 0
    let make = { () -> Int in
      made += 1
      return made * 10
    }
    #expect(memo.value(for: "a", make: make) == 10)
    #expect(memo.value(for: "a", make: make) == 10)
    #expect(memo.value(for: "b", make: make) == 20)
    #expect(made == 2)
  }

  @Test("a failure is not kept: the next call makes the value again")
  func failureNotKept() throws {
    let memo = BoundedMemo<String, Int>(limit: 4)
    #expect(throws: Refused.self) { try memo.value(for: "a") { () throws(Refused) -> Int in throw Refused() } }
    #expect(memo.count == 0)
    #expect(try memo.value(for: "a") { () throws(Refused) -> Int in 1 } == 1)
  }

  @Test("full, it is emptied before the next key is kept, so it never holds more than its limit")
  func emptiedWhenFull() {
    let memo = BoundedMemo<Int, Int>(limit: 3)
    for key in 0..<3 { _ = memo.value(for: key) { key } }
    #expect(memo.count == 3)
    _ = memo.value(for: 3) { 3 }
    #expect(memo.count == 1)
    var remade = false
    _ = memo.value(for: 0) {
      remade = true
      return 0
    }
    #expect(remade)
  }
}
