// The two halves of the restart test: one process queues writes with the network off and
// is killed; the next one, on the same cache directory, sends them, then queries the cache
// with the index manager's auto creation on.
import FirestoreClient
import Foundation

/// An instance with a persistent cache in `directory`; the project and emulator come from
/// the environment, as for `Firestore.firestore()`.
func persistentFirestore(directory: String) -> Firestore {
  let settings = FirestoreSettings()
  settings.cacheSettings = PersistentCacheSettings(directory: URL(fileURLWithPath: directory))
  return Firestore(projectID: Firestore.detectedProjectID() ?? "demo-port", settings: settings)
}

func offlineWrite(directory: String, count: Int) async throws {
  let db = persistentFirestore(directory: directory)
  try await db.disableNetwork()
  let queue = db.collection("restart")
  for i in 0..<count {
    queue.document("d\(i)").setData(["i": i], completion: nil)
  }
  // Order and once-only delivery: a set, then increments that must each land once.
  queue.document("counter").setData(["n": 0], completion: nil)
  for _ in 0..<3 { queue.document("counter").updateData(["n": FieldValue.increment(Int64(1))], completion: nil) }
  let pending = try await queue.getDocuments(source: .cache)
  print("queued \(pending.count) pending=\(pending.metadata.hasPendingWrites)")
  fflush(stdout)
  // The writes live in the cache file only; the test kills the process now (SIGKILL: no
  // terminate(), no clean-up of any kind).
  while true { try await Task.sleep(nanoseconds: 1_000_000_000) }
}

func deliver(directory: String) async throws {
  let db = persistentFirestore(directory: directory)
  let queue = db.collection("restart")
  let before = try await queue.getDocuments(source: .cache)
  print("restored \(before.count) pending=\(before.metadata.hasPendingWrites)")
  try await db.waitForPendingWrites()
  let after = try await queue.getDocuments(source: .server)
  print("delivered \(after.count) counter=\(after.documents.first { $0.documentID == "counter" }?.get("n") as? Int ?? -1)")

  // The persistent cache's indexes, as the Apple SDK spells them: one manager per instance,
  // and cache queries that answer the same with auto creation on.
  let indexManager = db.persistentCacheIndexManager
  check(indexManager != nil && indexManager == db.persistentCacheIndexManager, "one index manager per instance")
  indexManager?.enableIndexAutoCreation()
  let seventh = try await queue.whereField("i", isEqualTo: 7).getDocuments(source: .cache)
  indexManager?.disableIndexAutoCreation()
  indexManager?.deleteAllIndexes()
  print("cache query with indexes found \(seventh.documents.map { $0.documentID })")
}
