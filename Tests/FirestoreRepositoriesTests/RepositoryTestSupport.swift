import FirestoreClient
import FirestoreDemo
import FirestorePlatform
import FirestoreRepositories
import FirestoreTestSupport
import FirestoreWire
import Foundation
import Testing

/// Helpers shared by the repository tests (mock and emulator alike).
enum RepositoryTestSupport {
  /// Writes `count` articles `a01`, `a02`... into `collection` with one batch: article n
  /// published n hours after a fixed time, in `category(n)`.
  static func seedArticles(
    _ db: Firestore, _ collection: String, count: Int, category: (Int) -> String = { _ in "swift" }
  ) async throws {
    let batch = db.batch()
    for n in 1...count {
      batch.setData(
        [
          "title": "Article \(n)", "category": category(n),
          "publishedAt": Date(timeIntervalSince1970: 1_700_000_000 + Double(n) * 3600),
          "content": String(repeating: "x", count: 200),
        ], forDocument: db.collection(collection).document(articleID(n)))
    }
    _ = try await batch.commit()
  }

  static func articleID(_ n: Int) -> String { n < 10 ? "a0\(n)" : "a\(n)" }
}
