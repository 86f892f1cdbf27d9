import BenchmarkSupport
import FirestoreClient
import FirestorePlatform
import FirestoreWire
import Foundation

/// listen-latency and `listen-hold`: real-time listeners on `users/u1/favorites` of the seeded emulator.
enum ListenScenarios {
  /// listen-latency: write -> snapshot latency, the operation of `bench_python.py`'s s6.
  ///
  /// One client listens on `users/u1/favorites` (50 documents); a second client (its own
  /// transport, as Python uses a second client and channel) sets new favorites one by one.
  /// Each sample is from the start of `setData()` to the listener's `.added` change for that
  /// document; 5 warm-up writes, 20 ms between writes; the new documents are deleted before
  /// and after. Also reports `listen-latency.ack`: the `setData()` return times of the same loop.
  static func listenLatency(_ options: BenchOptions) async throws -> [BenchResult] {
    let n = options.runs(50)
    let warm = 5
    let host = try options.emulatorHost()
    let listenerDB = Firestore(projectID: PeerDataset.project, settings: .emulator(host: host))
    let writerSettings = FirestoreSettings.emulator(host: host)
    writerSettings.transport = CurlTransport()
    let writerDB = Firestore(projectID: PeerDataset.project, settings: writerSettings)
    let favorites = listenerDB.collection("users/\(PeerDataset.uid)/favorites")
    let writerFavorites = writerDB.collection("users/\(PeerDataset.uid)/favorites")
    let existing = Set(PeerDataset.favoriteIDs)
    let ids = (0..<PeerDataset.articleCount).map(PeerDataset.articleID).filter { !existing.contains($0) }.prefix(n + warm)
    let cleanup = writerDB.batch()
    for id in ids { cleanup.deleteDocument(writerFavorites.document(id)) }
    _ = try await cleanup.commit()

    let clock = ContinuousClock()
    let waits = ListenWaits()
    let initial = Locked(false)
    let registration = favorites.addSnapshotListener { snapshot, _ in
      let now = clock.now
      guard let snapshot else { return }
      waits.seen.withLock { seen in
        for change in snapshot.documentChanges where change.type == .added && seen[change.document.documentID] == nil {
          seen[change.document.documentID] = now
        }
      }
      let woken = waits.waiter.withLock { w -> (CheckedContinuation<ContinuousClock.Instant?, Never>, ContinuousClock.Instant)? in
        guard let current = w, let at = waits.seen.withLock({ $0[current.id] }) else { return nil }
        w = nil
        return (current.continuation, at)
      }
      if let (continuation, at) = woken { continuation.resume(returning: at) }
      if snapshot.count >= PeerDataset.favoriteCount { initial.withLock { $0 = true } }
    }
    defer { registration.remove() }
    let subscribe = clock.now
    while !initial.withLock({ $0 }) {
      guard clock.now - subscribe < .seconds(30) else { throw ToolFailure("listen-latency: no initial snapshot of the favorites in 30 s") }
      try await Task.sleep(for: .milliseconds(1))
    }
    let initialSnapshot = Statistics.milliseconds(clock.now - subscribe)
    var latency: [Double] = []
    var ack: [Double] = []
    for (k, id) in ids.enumerated() {
      let t0 = clock.now
      _ = try await writerFavorites.document(id).setData(["starredAt": Date()])
      let t1 = clock.now
      // A watchdog ends the wait after 15 s, so a lost snapshot fails the run instead of hanging it.
      let watchdog = Task {
        try await Task.sleep(for: .seconds(15))
        waits.waiter.withLock { w in
          w?.continuation.resume(returning: nil)
          w = nil
        }
      }
      let arrival: ContinuousClock.Instant? = await withCheckedContinuation { continuation in
        let already: ContinuousClock.Instant? = waits.waiter.withLock { w in
          if let at = waits.seen.withLock({ $0[id] }) { return at }
          w = (id, continuation)
          return nil
        }
        if let already { continuation.resume(returning: already) }
      }
      watchdog.cancel()
      guard let arrival else { throw ToolFailure("listen-latency: the listener never saw \(id)") }
      if k >= warm {
        latency.append(Statistics.milliseconds(arrival - t0))
        ack.append(Statistics.milliseconds(t1 - t0))
      }
      try await Task.sleep(for: .milliseconds(20))
    }
    let undo = writerDB.batch()
    for id in ids { undo.deleteDocument(writerFavorites.document(id)) }
    _ = try await undo.commit()
    var result = BenchResult(scenario: "listen-latency", label: "listen: setData() start -> listener's .added change", samples: latency)
    result.add("initial_snapshot_ms", .number(initialSnapshot))
    return [result, BenchResult(scenario: "listen-latency.ack", label: "(same run) setData() return (write ack)", samples: ack)]
  }

  /// `listen-hold`: keeps one listener on `users/u1/favorites` for `--seconds`, a load for
  /// timing another process's writes while our listener is attached, and the process CPU
  /// the idle listener costs (from its first snapshot to the end of the hold).
  static func hold(_ options: BenchOptions) async throws -> [BenchResult] {
    let db = try PeerDataset.firestore(options)
    let snapshots = Locked(0)
    let first = AsyncStream<Void>.makeStream()
    let registration = db.collection("users/\(PeerDataset.uid)/favorites").addSnapshotListener { _, _ in
      if snapshots.withLock({ count -> Bool in
        count += 1
        return count == 1
      }) {
        first.continuation.finish()
      }
    }
    for await _ in first.stream {}
    let clock = ContinuousClock()
    let start = clock.now
    let cpuBefore = ProcessCPUTime.now()
    try await Task.sleep(for: .seconds(options.holdSeconds))
    let cpu = ProcessCPUTime.now() - cpuBefore
    registration.remove()
    var result = BenchResult(
      scenario: "listen-hold", label: "one listener held for \(options.holdSeconds) s after its first snapshot",
      samples: [Statistics.milliseconds(clock.now - start)])
    result.add("snapshots", .integer(snapshots.withLock { $0 }))
    result.add("cpu_ms_held", .number(cpu))
    return [result]
  }
}
