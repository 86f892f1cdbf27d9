import FirestoreWire
import Foundation
import Testing

@testable import FirestoreClient

@Suite("A large batch's text in kept memory")
struct BatchTextBuffersTests {
  static let root = "projects/p/databases/(default)/documents/c/"

  static func writes(_ prefix: String, _ count: Int) -> [Write] {
    (0..<count).map { i in
      Write(
        operation: .update(Document(name: root + "\(prefix)\(i)", fields: ["text": .string(prefix + String(repeating: "x", count: i))])))
    }
  }

  static func body(_ buffers: BatchTextBuffers, _ writes: [Write], transaction: String? = nil) -> Data {
    let parts = stride(from: 0, to: writes.count, by: 4).map { buffers.encodedWrites(writes[$0..<min($0 + 4, writes.count)]) }
    return buffers.body(encodedWrites: parts, transaction: transaction)
  }

  static func address(_ data: Data) -> UnsafeRawPointer? { data.withUnsafeBytes { $0.baseAddress } }

  @Test("each body is the request's own text, and one still held is not written over by the next")
  func bodiesStayTheirOwn() {
    let buffers = BatchTextBuffers()
    let first = Self.writes("a", 10)
    let second = Self.writes("b", 9)
    let held = Self.body(buffers, first)
    #expect(Array(held) == CommitRequest(writes: first).jsonBytes)
    let next = Self.body(buffers, second, transaction: "dHg=")
    #expect(Array(next) == CommitRequest(writes: second, transaction: "dHg=").jsonBytes)
    #expect(Self.address(next) != Self.address(held))
    #expect(Array(held) == CommitRequest(writes: first).jsonBytes, "the first body, held, is unchanged")
  }

  @Test("a body's memory serves the next body once its data is gone, and a part's the next part")
  func memoryIsKept() {
    let buffers = BatchTextBuffers()
    let writes = Self.writes("a", 12)
    let part = buffers.encodedWrites(writes)
    let partAddress = part.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    var bodyAddress: UnsafeRawPointer?
    do {
      let body = buffers.body(encodedWrites: [consume part], transaction: nil)
      #expect(Array(body) == CommitRequest(writes: writes).jsonBytes)
      bodyAddress = Self.address(body)
    }
    let next = buffers.encodedWrites(writes.prefix(1))
    #expect(next == CommitRequest.encodedWrites(writes.prefix(1)))
    #expect(next.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) } == partAddress, "written where the part was")
    let smaller = buffers.body(encodedWrites: [next], transaction: nil)
    #expect(Array(smaller) == CommitRequest(writes: Array(writes.prefix(1))).jsonBytes)
    #expect(Self.address(smaller) == bodyAddress, "written where the first body was")
  }

  @Test("a body a little larger than the one before is written into that one's memory")
  func slightlyLargerBody() {
    let buffers = BatchTextBuffers()
    var firstCount = 0
    var firstAddress: UnsafeRawPointer?
    do {
      let first = Self.body(buffers, Self.writes("a", 16))
      firstCount = first.count
      firstAddress = Self.address(first)
    }
    let writes = Self.writes("ab", 16)
    let next = Self.body(buffers, writes)
    #expect(Array(next) == CommitRequest(writes: writes).jsonBytes)
    #expect(next.count > firstCount && next.count <= firstCount + firstCount / 8, "the case this test is about")
    #expect(Self.address(next) == firstAddress)
  }

  @Test("a larger body than the kept memory gets memory of its own")
  func largerBody() {
    let buffers = BatchTextBuffers()
    _ = Self.body(buffers, Self.writes("a", 2))
    let larger = Self.writes("d", 40)
    #expect(Array(Self.body(buffers, larger)) == CommitRequest(writes: larger).jsonBytes)
  }
}
