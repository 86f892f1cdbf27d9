// QuickStart: write, read, query, Codable and a transaction against the Firestore emulator.
//
//   FIRESTORE_EMULATOR_HOST=127.0.0.1:8080 swift run --package-path Examples/QuickStart quickstart
//
// Exits 1 if anything read back differs from what was written; `scripts/test.sh` runs it.
import FirestoreClient
import Foundation

guard let emulatorHost = ProcessInfo.processInfo.environment["FIRESTORE_EMULATOR_HOST"], !emulatorHost.isEmpty else {
  print("set FIRESTORE_EMULATOR_HOST to run against an emulator")
  exit(0)
}

/// A city as the app sees it; `id` is filled from the document ID when decoding.
struct City: Codable, Sendable {
  @DocumentID var id: String?
  var name: String
  var state: String
  var population: Int
}

/// Stops the program with status 1 when a read-back differs from what was written.
func check(_ condition: Bool, _ message: @autoclosure () -> String) {
  if !condition {
    print("MISMATCH: \(message())")
    exit(1)
  }
}

func runQuickStart(emulatorHost: String) async throws {
  // FirestoreSettings() (the default) reads FIRESTORE_EMULATOR_HOST.
  let db = Firestore(projectID: "quickstart-demo")
  print("Firestore emulator at \(emulatorHost), project \(db.projectID)")

  // 1. Write a document, then read it back.
  let sf = db.collection("cities").document("SF")
  let result = try await sf.setData(["name": "San Francisco", "state": "CA", "population": 860_000])
  print("wrote cities/SF (update time \(result.updateTime))")

  let snapshot = try await sf.getDocument()
  check(snapshot.exists, "cities/SF does not exist after setData")
  check(snapshot.get("name") as? String == "San Francisco", "cities/SF name is \(String(describing: snapshot.get("name")))")
  check(snapshot.get("population") as? Int == 860_000, "cities/SF population is \(String(describing: snapshot.get("population")))")
  print("read cities/SF: \(snapshot.data() ?? [:])")

  // 2. Codable: write a struct, read it back as one.
  let laRef = db.collection("cities").document("LA")
  let la = City(name: "Los Angeles", state: "CA", population: 3_900_000)
  // As in the Apple SDK, setData(from:) queues the write; wait for the server before reading.
  try laRef.setData(from: la)
  try await db.waitForPendingWrites()
  let decoded = try await laRef.getDocument().data(as: City.self)
  check(decoded.id == "LA", "decoded id is \(String(describing: decoded.id))")
  check(decoded.name == la.name && decoded.state == la.state && decoded.population == la.population, "decoded \(decoded)")
  print("decoded cities/LA: \(decoded.name), population \(decoded.population)")

  // 3. A query: California cities, smallest first.
  let query = try await db.collection("cities").whereField("state", isEqualTo: "CA").order(by: "population").getDocuments()
  for document in query.documents {
    print("  \(document.documentID): \(document.data())")
  }
  let ids = query.documents.map { $0.documentID }
  check(ids == ["SF", "LA"], "query returned \(ids), expected [\"SF\", \"LA\"]")

  // 4. A transaction that increments a counter.
  let counter = db.collection("counters").document("visits")
  try await counter.setData(["label": "visits"], merge: true)  // make sure it exists; keeps "count"
  let before = (try await counter.getDocument().get("count") as? Int) ?? 0
  let after = try await db.runTransaction { transaction in
    let current = try await transaction.getDocument(counter)
    let count = (current.get("count") as? Int) ?? 0
    transaction.updateData(["count": count + 1], forDocument: counter)
    return count + 1
  }
  let stored = try await counter.getDocument().get("count") as? Int
  check(after == before + 1, "transaction returned \(after), expected \(before + 1)")
  check(stored == after, "counters/visits count is \(String(describing: stored)), expected \(after)")
  print("counter: \(before) -> \(after)")
}

do {
  try await runQuickStart(emulatorHost: emulatorHost)
  print("quickstart: every read-back matched")
} catch {
  print("quickstart failed: \(error)")
  exit(1)
}
