import FirestoreClient
import FirestoreRepositories
import Foundation

/// The demo's sample data: its own collections, written with fixed IDs so that seeding
/// again overwrites instead of duplicating (safe to re-run).
enum DemoData {
  /// The articles' collection.
  static let articles = "demoArticles"
  /// The public meal plans' collection.
  static let mealPlans = "demoMealPlans"
  /// The signed-in user of the demo.
  static let readerUID = "demo-reader"
  /// A user who has no profile.
  static let absentUID = "demo-nobody"
  /// How many articles: 60 `swift`, 40 `server`, 20 `ios`.
  static let articleCount = 120
  /// The meal plans.
  static let plans: [(id: String, title: String, time: String)] = [
    ("lasagna", "Lasagna", "90 min"), ("pho", "Pho", "3 h"), ("shakshuka", "Shakshuka", "30 min"),
    ("ramen", "Shoyu ramen", "2 h"), ("dal", "Dal tadka", "45 min"), ("paella", "Paella", "1 h"),
  ]

  static func articleID(_ n: Int) -> String { String(format: "article-%03d", n) }

  static func category(_ n: Int) -> String {
    switch n % 6 {
    case 0, 1, 2: return "swift"
    case 3, 4: return "server"
    default: return "ios"
    }
  }

  /// Writes everything in one batch and clears the reader's stars on the demo's plans.
  static func seed(_ db: Firestore) async throws {
    let batch = db.batch()
    let base = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01
    let paragraph = String(repeating: "Firestore keeps the ordered IDs small and the articles in batches. ", count: 20)
    for n in 1...articleCount {
      batch.setData(
        [
          "title": "Article \(n): \(category(n)) notes",
          "category": category(n),
          "publishedAt": base.addingTimeInterval(Double(n) * 3600),
          "content": "\(n). " + paragraph,
        ], forDocument: db.collection(articles).document(articleID(n)))
    }
    for plan in plans {
      batch.setData(
        ["title": plan.title, "estimatedTime": plan.time, "instructions": ["Prepare", "Cook", "Serve"]],
        forDocument: db.collection(mealPlans).document(plan.id))
      batch.deleteDocument(db.collection("users").document(readerUID).collection("favorites").document(plan.id))
    }
    let reader = db.collection("users").document(readerUID)
    batch.setData(
      ["uid": readerUID, "name": "Ada Reader", "gender": "female", "height": 170, "agenda": "cook more"], forDocument: reader)
    batch.setData(["email": "ada@example.com"], forDocument: reader.collection("privateUserInfo").document("private"))
    batch.deleteDocument(db.collection("users").document(absentUID))
    _ = try await batch.commit()
  }
}
