// firestore-bench: performance scenarios, run as `swift run -c release firestore-bench [scenario…]`.
//
// Scenarios:
//   mock-startup   MockFirestoreServer.start() until it has answered its first request
//                  (median and p95 over 50 starts).
//   set            200 sequential single-document sets on FIRESTORE_EMULATOR_HOST (S7), into
//                  SET_COLLECTION (default bench-set).
//   listen         write -> snapshot latency on FIRESTORE_EMULATOR_HOST, the same
//                  operation as bench-peer's Python S6: listen on users/u1/favorites of
//                  project "bench" (seeded by bench-peer/seed.py), set() 100 new documents
//                  one by one from a second client, time set() start -> the listener's
//                  .added change; 5 warm-up writes, 20 ms apart. LISTEN_N overrides 100.
//   decode         parses the recorded :runQuery body DECODE_BODY into Documents (no
//                  network): median and p95 over 20 runs, and the JSON parse alone.
//   listen-hold    keeps one listener on users/u1/favorites for HOLD_SECONDS (default 20),
//                  to time another process's writes while our listener is attached.
//   cache          on an in-process mock server: a filtered, ordered, limited query over
//                  2,000 documents from .server and from .cache (50 runs each), and the
//                  latency-compensation echo: set() start -> the same instance's listener
//                  showing the write (pending), and -> showing it confirmed (100 writes);
//                  with the memory cache, then the persistent (SQLite) one.
//   bulk           10,000 article writes (title, ~2 KB content, category, publishedAt, views,
//                  tags; the same documents as Benchmarks/peer/bulk_writer.py) through a
//                  BulkWriter on FIRESTORE_EMULATOR_HOST, project "bench", into a fresh
//                  collection (BULK_COLLECTION names it); a 500-write warm-up first. BULK_MODE=unlimited (default:
//                  no rate limit) or default (the 500/50/5 ramp-up); BULK_N overrides 10,000,
//                  BULK_CONCURRENCY the requests in flight (default 10).
//
// Figures are printed, never asserted: performance is measured here, not in tests.
import FirestoreClient
import FirestoreMock
import FirestoreWire
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The median and 95th percentile of durations, in milliseconds.
func summarize(_ samples: [Duration]) -> (median: Double, p95: Double) {
  let ms = samples.map { Double($0.components.seconds) * 1000 + Double($0.components.attoseconds) / 1e15 }.sorted()
  return (ms[ms.count / 2], ms[min(ms.count - 1, Int(Double(ms.count) * 0.95))])
}

/// Starts a mock server and waits for its first answer over a fresh connection.
func mockStartup() async throws -> Duration {
  let clock = ContinuousClock()
  let start = clock.now
  let server = try MockFirestoreServer.start()
  defer { server.stop() }
  let session = URLSession(configuration: .ephemeral)
  let (data, _) = try await session.data(from: URL(string: "http://\(server.hostAndPort)/")!)
  guard String(decoding: data, as: UTF8.self) == "Ok" else { throw CocoaError(.featureUnsupported) }
  return clock.now - start
}

/// Arrival times of listened documents, and the one waiter for the next of them.
final class ListenWaits: Sendable {
  let seen = Locked<[String: ContinuousClock.Instant]>([:])
  let waiter = Locked<(id: String, continuation: CheckedContinuation<ContinuousClock.Instant?, Never>)?>(nil)
}

/// Write -> snapshot latency against the emulator, as bench-peer's Python S6 measures it.
func listenLatency() async throws -> (latency: [Duration], ack: [Duration]) {
  guard ProcessInfo.processInfo.environment["FIRESTORE_EMULATOR_HOST"] != nil else {
    throw FirestoreError(.failedPrecondition, "set FIRESTORE_EMULATOR_HOST to an emulator seeded by bench-peer/seed.py")
  }
  let n = Int(ProcessInfo.processInfo.environment["LISTEN_N"] ?? "") ?? 100
  let warm = 5
  let listenerDB = Firestore(projectID: "bench")
  // A separate client, with its own connections, writes: as Python uses a second client.
  var writerSettings = FirestoreSettings()
  writerSettings.transport = SocketTransport()
  let writerDB = Firestore(projectID: "bench", settings: writerSettings)
  let favorites = listenerDB.collection("users/u1/favorites")
  let writerFavorites = writerDB.collection("users/u1/favorites")
  let existing = Set((0..<50).map { String(format: "a%04d", $0 * 40) })
  let ids = (0..<2000).map { String(format: "a%04d", $0) }.filter { !existing.contains($0) }.prefix(n + warm)
  let cleanup = writerDB.batch()
  for id in ids { cleanup.deleteDocument(writerFavorites.document(id)) }
  try await cleanup.commit()

  let clock = ContinuousClock()
  // Arrival times, and the waiter for the document the loop is waiting on: the loop
  // sleeps until the listener resumes it (no polling, which would steal CPU from the
  // emulator on a 2-core machine).
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
    if snapshot.count >= 50 { initial.withLock { $0 = true } }
  }
  defer { registration.remove() }
  let subscribe = clock.now
  while !initial.withLock({ $0 }) {
    guard clock.now - subscribe < .seconds(30) else { throw FirestoreError(.deadlineExceeded, "no initial snapshot") }
    try await Task.sleep(for: .milliseconds(1))
  }
  var latency: [Duration] = []
  var ack: [Duration] = []
  for (k, id) in ids.enumerated() {
    let t0 = clock.now
    try await writerFavorites.document(id).setData(["starredAt": Date()])
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
    guard let arrival else { throw FirestoreError(.deadlineExceeded, "listener never saw \(id)") }
    if k >= warm {
      latency.append(arrival - t0)
      ack.append(t1 - t0)
    }
    try await Task.sleep(for: .milliseconds(20))
  }
  let undo = writerDB.batch()
  for id in ids { undo.deleteDocument(writerFavorites.document(id)) }
  try await undo.commit()
  return (latency, ack)
}

/// When each keyed event first happened, and who waits for it.
final class Arrivals: Sendable {
  private struct State {
    var seen: [String: ContinuousClock.Instant] = [:]
    var waiters: [String: CheckedContinuation<ContinuousClock.Instant, Never>] = [:]
  }

  private let state = Locked(State())

  func record(_ key: String, at time: ContinuousClock.Instant) {
    let waiter = state.withLock { s -> CheckedContinuation<ContinuousClock.Instant, Never>? in
      guard s.seen[key] == nil else { return nil }
      s.seen[key] = time
      return s.waiters.removeValue(forKey: key)
    }
    waiter?.resume(returning: time)
  }

  func wait(_ key: String) async -> ContinuousClock.Instant {
    await withCheckedContinuation { continuation in
      let time = state.withLock { s -> ContinuousClock.Instant? in
        if let time = s.seen[key] { return time }
        s.waiters[key] = continuation
        return nil
      }
      if let time { continuation.resume(returning: time) }
    }
  }
}

/// Cache reads against server reads, and the latency-compensation echo, on a mock server,
/// with the cache `kind` (`memory` or `persistent`, in a temporary directory).
func cacheScenario(_ kind: String) async throws {
  let server = try MockFirestoreServer.start()
  defer { server.stop() }
  var settings = FirestoreSettings.emulator(host: server.hostAndPort)
  let directory = FileManager.default.temporaryDirectory.appendingPathComponent("firestore-bench-\(UUID().uuidString)")
  defer { try? FileManager.default.removeItem(at: directory) }
  if kind == "persistent" { settings.cache = .persistent(directory: directory) }
  let db = Firestore(projectID: "bench", settings: settings)
  let items = db.collection("items")
  for chunk in stride(from: 0, to: 2000, by: 500) {
    let batch = db.batch()
    for i in chunk..<chunk + 500 {
      batch.setData(["i": i, "group": i % 10, "name": "item \(i)"], forDocument: items.document("d\(i)"))
    }
    try await batch.commit()
  }
  _ = try await items.getDocuments(source: .server)
  let query = items.whereField("group", isEqualTo: 3).order(by: "i", descending: true).limit(to: 20)
  let clock = ContinuousClock()
  for source in [FirestoreSource.server, .cache] {
    var samples: [Duration] = []
    for run in 0..<55 {
      let t0 = clock.now
      let result = try await query.getDocuments(source: source)
      if run >= 5 { samples.append(clock.now - t0) }
      guard result.count == 20 else { throw FirestoreError(.internal, "expected 20 results, got \(result.count)") }
    }
    let (median, p95) = summarize(samples)
    print(
      String(format: "cache (%@): query from .%@ median %.2f ms, p95 %.2f ms (2,000 documents, 50 runs)", kind, "\(source)", median, p95))
  }

  let arrivals = Arrivals()
  let favorites = db.collection("users/u1/favorites")
  let listener = Task {
    for try await snapshot in favorites.snapshots(includeMetadataChanges: true) {
      let now = clock.now
      for document in snapshot.documents {
        arrivals.record((document.metadata.hasPendingWrites ? "pending " : "confirmed ") + document.documentID, at: now)
      }
    }
  }
  defer { listener.cancel() }
  var pending: [Duration] = []
  var confirmed: [Duration] = []
  for i in 0..<105 {
    let id = "meal\(i)"
    let t0 = clock.now
    try await favorites.document(id).setData(["starredAt": FieldValue.serverTimestamp()])
    let shown = await arrivals.wait("pending " + id)
    let settled = await arrivals.wait("confirmed " + id)
    if i >= 5 {
      pending.append(shown - t0)
      confirmed.append(settled - t0)
    }
  }
  let (pendingMedian, pendingP95) = summarize(pending)
  let (confirmedMedian, confirmedP95) = summarize(confirmed)
  print(String(format: "cache (%@): set() -> own listener shows it (pending) median %.3f ms, p95 %.3f ms", kind, pendingMedian, pendingP95))
  print(
    String(format: "cache (%@): set() -> own listener shows it confirmed median %.2f ms, p95 %.2f ms", kind, confirmedMedian, confirmedP95))
}

let scenarios = CommandLine.arguments.dropFirst().isEmpty ? ["mock-startup"] : Array(CommandLine.arguments.dropFirst())
for scenario in scenarios {
  switch scenario {
  case "mock-startup":
    var samples: [Duration] = []
    for _ in 0..<5 { _ = try await mockStartup() }  // warm-up, not counted
    for _ in 0..<50 { samples.append(try await mockStartup()) }
    let (median, p95) = summarize(samples)
    print(String(format: "mock-startup: median %.2f ms, p95 %.2f ms (start() until the first answer; 50 runs)", median, p95))
  case "set":
    // Sequential single-document sets, as bench-peer's S7 (no listener active).
    let db = Firestore(projectID: "bench")
    let collection = ProcessInfo.processInfo.environment["SET_COLLECTION"] ?? "bench-set"
    let clock = ContinuousClock()
    var samples: [Duration] = []
    for i in 0..<205 {
      let t0 = clock.now
      try await db.collection(collection).document("d\(i % 20)").setData(["i": i, "at": Date()])
      if i >= 5 { samples.append(clock.now - t0) }
    }
    let (median, p95) = summarize(samples)
    print(String(format: "set: median %.2f ms, p95 %.2f ms over 200 sequential sets", median, p95))
  case "decode":
    // Parses a recorded :runQuery body (DECODE_BODY) into Documents: JSON parse, then the
    // wire model. 3 warm-up runs, then 20.
    guard let path = ProcessInfo.processInfo.environment["DECODE_BODY"], let body = FileManager.default.contents(atPath: path) else {
      throw FirestoreError(.invalidArgument, "set DECODE_BODY to a recorded :runQuery response body")
    }
    let clock = ContinuousClock()
    var parse: [Duration] = []
    var total: [Duration] = []
    var count = 0
    for run in 0..<23 {
      let t0 = clock.now
      let json = try JSONParser.parse(body)
      let t1 = clock.now
      count = 0
      for element in json.arrayValue ?? [] {
        if let document = element["document"] {
          _ = try Document(json: document)
          count += 1
        }
      }
      if run >= 3 {
        parse.append(t1 - t0)
        total.append(clock.now - t0)
      }
    }
    let (parseMedian, _) = summarize(parse)
    let (totalMedian, totalP95) = summarize(total)
    print(
      String(
        format: "decode: %d documents, %.1f MB: median %.2f ms (JSON parse alone %.2f ms), p95 %.2f ms", count,
        Double(body.count) / 1e6, totalMedian, parseMedian, totalP95))
  case "listen-hold":
    // Holds one listener on users/u1/favorites for HOLD_SECONDS (default 20): a load for
    // timing writes from another process while our listener is attached.
    let seconds = Int(ProcessInfo.processInfo.environment["HOLD_SECONDS"] ?? "") ?? 20
    let snapshots = Locked(0)
    let registration = Firestore(projectID: "bench").collection("users/u1/favorites").addSnapshotListener { _, _ in
      snapshots.withLock { $0 += 1 }
    }
    try await Task.sleep(for: .seconds(seconds))
    registration.remove()
    print("listen-hold: \(snapshots.withLock { $0 }) snapshots in \(seconds) s")
  case "listen":
    let (latency, ack) = try await listenLatency()
    let (median, p95) = summarize(latency)
    let (ackMedian, ackP95) = summarize(ack)
    print(String(format: "listen: write -> snapshot median %.2f ms, p95 %.2f ms over %d writes", median, p95, latency.count))
    print(String(format: "listen-ack: set() return median %.2f ms, p95 %.2f ms", ackMedian, ackP95))
  case "bulk":
    try await bulkScenario()
  case "cache":
    try await cacheScenario("memory")
    try await cacheScenario("persistent")
  default:
    FileHandle.standardError.write(
      Data("unknown scenario \(scenario); known: mock-startup, set, listen, listen-hold, cache, decode, bulk\n".utf8))
    exit(2)
  }
}
