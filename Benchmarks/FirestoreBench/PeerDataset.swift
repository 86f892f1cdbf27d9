import BenchmarkSupport
import FirestoreClient

/// The names of `Benchmarks/peer/dataset.py`: project `bench`, `articles/a0000..a1999` in
/// five categories (400 each), `users/u1` with 50 favorites.
///
/// The article contents come from Python's seeded random generator; rather than copy it,
/// scenarios that write articles read them back from the seeded emulator (``articles(in:)``),
/// so they write exactly the documents Python writes.
enum PeerDataset {
  static let project = "bench"
  static let articleCount = 2000
  /// `tech`, the first category, which the queries filter on.
  static let category = "tech"
  static let uid = "u1"
  static let favoriteCount = 50

  /// `a0007` for 7.
  static func articleID(_ i: Int) -> String {
    let digits = String(i)
    return "a" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }

  /// The favorites: every 40th article (`a0000, a0040, ... a1960`).
  static var favoriteIDs: [String] { stride(from: 0, to: articleCount, by: articleCount / favoriteCount).map(articleID) }

  /// `dataset.get_ids_20()`: 20 IDs spread over the collection (`a0003, a0103, ... a1903`).
  static var ids20: [String] { stride(from: 3, to: articleCount, by: 100).map(articleID) }

  /// A client of the seeded emulator with default settings.
  static func firestore(_ options: BenchOptions) throws -> Firestore {
    Firestore(projectID: project, settings: .emulator(host: try options.emulatorHost()))
  }

  /// The fields of every article as seeded, by index; fails when the emulator is not seeded.
  ///
  /// They are held as `setData` takes them, `[String: Any]`, as an app that builds its own
  /// data holds it: a `[String: any Sendable]` handed to `setData` would be converted,
  /// which copies the dictionary on every call (the benchmark's cost, not the client's).
  static func articles(in db: Firestore) async throws -> [[String: Any]] {
    let snapshot = try await db.collection("articles").getDocuments()
    var byIndex = [[String: Any]?](repeating: nil, count: articleCount)
    for document in snapshot.documents {
      if let i = Int(document.documentID.dropFirst()), byIndex.indices.contains(i) { byIndex[i] = document.data() }
    }
    let found = byIndex.compactMap { $0 }
    guard found.count == articleCount else {
      throw ToolFailure("the emulator has \(found.count) of the \(articleCount) articles: run Benchmarks/peer/seed.py first")
    }
    return found
  }

  /// Fails unless `count` is `expected`: a scenario that read the wrong number of
  /// documents measured the wrong thing.
  static func expect(_ count: Int, _ expected: Int, _ what: String) throws {
    guard count == expected else {
      throw ToolFailure("\(what): expected \(expected), got \(count) (is the emulator seeded by Benchmarks/peer/seed.py?)")
    }
  }
}
