import Testing

@testable import FirestoreWire

@Suite("dictionaries made with room for their entries")
struct ReservingCapacityTests {
  @Test("empty, with at least the room asked for, and filled without growing")
  func room() {
    for count in [0, 1, 5, 12, 100] {
      var fields = [String: Value](reservingCapacity: count)
      #expect(fields.isEmpty)
      #expect(fields.capacity >= count)
      let capacity = fields.capacity
      for index in 0..<count { fields["f\(index)"] = .integer(Int64(index)) }
      #expect(fields.count == count)
      #expect(fields.capacity == capacity)
    }
  }
}
