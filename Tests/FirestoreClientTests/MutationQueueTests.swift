import Testing

@testable import FirestoreClient

/// The write queue's state machine: order, per-document waiting, retries and the network.
@Suite("Mutation queue")
struct MutationQueueTests {
  private func entry(_ id: Int, _ documents: Set<String>, idempotent: Bool = true) -> MutationQueue.Entry {
    MutationQueue.Entry(id: id, documents: documents, isIdempotent: idempotent)
  }

  @Test("batches of different documents go out at once, in queue order")
  func independentBatches() {
    var queue = MutationQueue()
    #expect(queue.enqueue(entry(1, ["a"])) == [.send(1)])
    #expect(queue.enqueue(entry(2, ["b"])) == [.send(2)])
    #expect(queue.finish(2, .acknowledged) == [])
    #expect(queue.finish(1, .acknowledged) == [])
    #expect(queue.entries.isEmpty)
  }

  @Test("a batch waits while an earlier one writes one of its documents")
  func sameDocumentWaits() {
    var queue = MutationQueue()
    #expect(queue.enqueue(entry(1, ["a"])) == [.send(1)])
    #expect(queue.enqueue(entry(2, ["a", "b"])) == [])
    #expect(queue.enqueue(entry(3, ["b"])) == [], "behind batch 2, which writes b")
    #expect(queue.enqueue(entry(4, ["c"])) == [.send(4)])
    #expect(queue.finish(1, .acknowledged) == [.send(2)])
    #expect(queue.finish(2, .rejected) == [.send(3)])
  }

  @Test("at most ten batches are in flight")
  func inFlightLimit() {
    var queue = MutationQueue()
    var sent: [MutationQueue.Action] = []
    for id in 1...12 { sent += queue.enqueue(entry(id, ["d\(id)"])) }
    #expect(sent == (1...10).map { .send($0) })
    #expect(queue.finish(3, .acknowledged) == [.send(11)])
  }

  @Test("a retry backs off once; nothing is sent until the backoff ends; a success resets the count")
  func retryBacksOff() {
    var queue = MutationQueue()
    _ = queue.enqueue(entry(1, ["a"]))
    _ = queue.enqueue(entry(2, ["b"]))
    #expect(queue.finish(1, .retry) == [.backOff(attempt: 1)])
    #expect(queue.finish(2, .retry) == [], "one backoff at a time")
    #expect(queue.enqueue(entry(3, ["c"])) == [], "nothing goes out while backing off")
    #expect(queue.backOffElapsed() == [.send(1), .send(2), .send(3)])
    #expect(queue.finish(1, .retry) == [.backOff(attempt: 3)])
    #expect(queue.serverReachable() == [.send(1)], "the server answering again cuts the backoff short")
    #expect(queue.finish(1, .acknowledged) == [])
    #expect(queue.failedAttempts == 0)
    _ = queue.enqueue(entry(4, ["d"]))
    #expect(queue.finish(4, .overloaded) == [.backOff(attempt: 1, overloaded: true)], "an overloaded server: the longest wait")
  }

  @Test("nothing is sent while the network is disabled; enabling sends in order at once")
  func networkDisabled() {
    var queue = MutationQueue()
    #expect(queue.setNetworkEnabled(false) == [])
    #expect(queue.enqueue(entry(1, ["a"])) == [])
    #expect(queue.enqueue(entry(2, ["a"])) == [])
    #expect(queue.enqueue(entry(3, ["b"])) == [])
    #expect(queue.setNetworkEnabled(true) == [.send(1), .send(3)])
    #expect(queue.finish(1, .acknowledged) == [.send(2)])
  }

  @Test("a batch in flight when the network is disabled finishes; a retry of it waits for the network")
  func inFlightWhenDisabled() {
    var queue = MutationQueue()
    _ = queue.enqueue(entry(1, ["a"]))
    _ = queue.setNetworkEnabled(false)
    #expect(queue.finish(1, .retry) == [.backOff(attempt: 1)])
    #expect(queue.backOffElapsed() == [])
    #expect(queue.setNetworkEnabled(true) == [.send(1)])
  }

  @Test("withdrawn batches leave the queue unsettled (in flight ones stay) and come back in ID order, behind earlier writes")
  func withdrawAndRestore() {
    var queue = MutationQueue()
    _ = queue.setNetworkEnabled(false)
    for (id, document) in [(1, "a"), (2, "b"), (3, "a"), (4, "c")] { _ = queue.enqueue(entry(id, [document])) }
    #expect(queue.withdraw([1, 3]) == [1, 3])
    #expect(queue.entries.map(\.id) == [2, 4])
    #expect(queue.setNetworkEnabled(true) == [.send(2), .send(4)])
    #expect(queue.withdraw([2]) == [], "batch 2 is in flight: its attempt ends first")
    #expect(queue.finish(2, .withdrawn) == [])
    #expect(queue.failedAttempts == 0, "a withdrawn batch is not a failure")
    let restored = queue.restore([entry(3, ["a"]), entry(1, ["a"])])
    #expect(queue.entries.map(\.id) == [1, 3, 4])
    #expect(restored == [.send(1)], "batch 3 waits for batch 1, which writes the same document")
    #expect(queue.finish(1, .acknowledged) == [.send(3)])
  }
}
