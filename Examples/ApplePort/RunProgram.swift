// A program written against the Apple SDK's API for what this port adds: values as
// NSNumber, AggregateSource, the Codable strategies and @ExplicitNull, listen options,
// offline writes with disableNetwork/enableNetwork, waitForPendingWrites, snapshots in sync,
// a transaction block with errorPointer, terminate and clearPersistence. Every Firestore call
// is spelled as in FirebaseFirestore.
import FirestoreClient
import Foundation

struct Recipe: Codable {
  @DocumentID var id: String?
  var displayName: String
  var cookingMinutes: Int
  var createdAt: Date
  @ExplicitNull var rating: Double?
}

@MainActor
func runProgram() async throws {
  let db = Firestore.firestore()
  let root = db.collection("port-program")

  // Values come back as NSNumber: every numeric cast works.
  try await root.document("stats").setData(["visits": 41, "ratio": 0.75, "enabled": true])
  let stats = try await root.document("stats").getDocument(source: .server)
  let visits = stats.get("visits") as? Int64 ?? 0
  check(visits == 41, "visits as? Int64 = \(visits)")
  check(stats.get("visits") as? Int == 41 && stats.get("visits") as? NSNumber == 41, "visits as? Int / NSNumber")
  check(stats.get("ratio") as? Double == 0.75 && stats.get("enabled") as? Bool == true, "ratio / enabled")
  try await root.document("stats").updateData(["visits": visits + 1])
  print("values visits=\(visits + 1)")

  // Aggregations from the server, the count an NSNumber.
  let countSnapshot = try await root.count.getAggregation(source: .server)
  check(countSnapshot.count.intValue == 1, "count \(countSnapshot.count)")
  print("aggregate count=\(countSnapshot.count)")

  // Codable with the Apple SDK's strategies.
  let encoder = Firestore.Encoder()
  encoder.keyEncodingStrategy = .convertToSnakeCase
  encoder.dateEncodingStrategy = .iso8601
  let decoder = Firestore.Decoder()
  decoder.keyDecodingStrategy = .convertFromSnakeCase
  decoder.dateDecodingStrategy = .iso8601
  let recipe = Recipe(displayName: "Soup", cookingMinutes: 20, createdAt: Date(timeIntervalSince1970: 1_700_000_000), rating: nil)
  try root.document("soup").setData(from: recipe, encoder: encoder)
  try await db.waitForPendingWrites()
  let stored = try await root.document("soup").getDocument(source: .server)
  check(stored.get("display_name") as? String == "Soup", "snake_case field")
  check(stored.get("created_at") as? String == "2023-11-14T22:13:20Z", "ISO 8601 date \(String(describing: stored.get("created_at")))")
  check(stored.data()?.keys.contains("rating") == true && stored.get("rating") is NSNull, "@ExplicitNull rating")
  let decoded = try await root.document("soup").getDocument(as: Recipe.self, decoder: decoder)
  check(decoded.id == "soup" && decoded.cookingMinutes == 20 && decoded.rating == nil, "decoded \(decoded)")
  print("codable \(decoded.displayName) \(decoded.cookingMinutes)")

  // A listener on the cache only, with metadata changes, and snapshots in sync.
  var cacheSnapshots: [QuerySnapshot] = []
  let options = SnapshotListenOptions().withSource(.cache).withIncludeMetadataChanges(true)
  let cacheListener = root.addSnapshotListener(options: options) { snapshot, error in
    if let snapshot = snapshot { cacheSnapshots.append(snapshot) }
  }
  var serverSnapshots: [QuerySnapshot] = []
  let serverListener = root.addSnapshotListener(includeMetadataChanges: true) { snapshot, error in
    if let snapshot = snapshot { serverSnapshots.append(snapshot) }
  }
  var inSync = 0
  let syncListener = db.addSnapshotsInSyncListener { inSync += 1 }
  await waitUntil("the listeners' first snapshots") { !cacheSnapshots.isEmpty && serverSnapshots.contains { !$0.metadata.isFromCache } }
  check(cacheSnapshots.first?.metadata.isFromCache == true, "cache listener starts from the cache")
  // Listeners of one query share one view: the cache listener follows the synced server one.
  await waitUntil("the cache listener in sync") { cacheSnapshots.last?.metadata.isFromCache == false }

  // Offline: writes are queued and shown at once, then sent when the network is back.
  try await db.disableNetwork()
  await waitUntil("the listener marked from the cache") { serverSnapshots.last?.metadata.isFromCache == true }
  var acknowledged = false
  root.document("offline").setData(["note": "written offline"]) { error in
    acknowledged = error == nil
  }
  root.document("stats").updateData(["visits": FieldValue.increment(Int64(1))], completion: nil)
  await waitUntil("the pending write in the listener") {
    serverSnapshots.last?.documents.contains { $0.documentID == "offline" } == true
      && serverSnapshots.last?.metadata.hasPendingWrites == true
  }
  let cached = try await root.document("offline").getDocument()
  check(cached.metadata.isFromCache && cached.metadata.hasPendingWrites, "offline read \(cached.metadata)")
  check(!acknowledged, "acknowledged while offline")
  try await db.enableNetwork()
  try await db.waitForPendingWrites()
  await waitUntil("the completion handler") { acknowledged }
  await waitUntil("the listener back in sync") {
    serverSnapshots.last.map { !$0.metadata.isFromCache && !$0.metadata.hasPendingWrites } == true
  }
  let visitsNow = try await root.document("stats").getDocument(source: .server).get("visits") as? Int
  check(visitsNow == 43, "visits after the offline increment \(String(describing: visitsNow))")
  check(inSync >= 2, "snapshots in sync \(inSync)")
  print("offline delivered visits=\(visitsNow ?? -1) inSync>=2")
  cacheListener.remove()
  serverListener.remove()
  syncListener.remove()

  // A transaction in the block form: a synchronous read, errorPointer, the value to completion.
  let statsRef = root.document("stats")
  var transactionOutcome: Any?
  db.runTransaction(
    { (transaction, errorPointer) -> Any? in
      let statsDocument: DocumentSnapshot
      do {
        try statsDocument = transaction.getDocument(statsRef)
      } catch let fetchError as NSError {
        errorPointer?.pointee = fetchError
        return nil
      }
      guard let oldVisits = statsDocument.data()?["visits"] as? Int else {
        errorPointer?.pointee = NSError(domain: "AppErrorDomain", code: -1, userInfo: [NSLocalizedDescriptionKey: "no visits"])
        return nil
      }
      transaction.updateData(["visits": oldVisits + 1], forDocument: statsRef)
      return oldVisits + 1
    },
    completion: { (object, error) in
      transactionOutcome = object ?? error
    })
  await waitUntil("the transaction's completion") { transactionOutcome != nil }
  check(transactionOutcome as? Int == 44, "transaction result \(String(describing: transactionOutcome))")
  print("transaction visits=\(transactionOutcome as? Int ?? -1)")

  // Terminate, then clear the persistence.
  try await db.terminate()
  try await db.clearPersistence()
  do {
    _ = try await root.document("stats").getDocument()
    check(false, "a call after terminate() succeeded")
  } catch {
    print("terminated \((error as? FirestoreError)?.code == .failedPrecondition)")
  }
  check(Firestore.firestore() !== db, "a new instance after terminate()")
}
