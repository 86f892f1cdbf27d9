import FirestoreTestSupport
import Foundation
import Testing

@testable import FirestoreClient

@Suite("Conformance: Codable")
struct CodableConformanceTests {
  enum Status: String, Codable { case draft, published }

  struct Address: Codable, Equatable {
    var city: String
    var zip: String?
  }

  struct Article: Codable, Equatable {
    @DocumentID var id: String?
    var title: String
    var status: Status
    var views: Int64
    var rating: Double
    var tags: [String]
    var address: Address
    var publishedAt: Date
    var thumbnail: Data
    var location: GeoPoint
    var author: DocumentReference
    var subtitle: String?
    @ServerTimestamp var createdAt: Timestamp?
  }

  @Test("setData(from:), getDocument(as:), @DocumentID and @ServerTimestamp", arguments: Backend.all)
  func roundTrip(_ backend: Backend) async throws {
    let ref = backend.collection().document("a1")
    let article = Article(
      title: "Swift on Linux", status: .published, views: Int64.max, rating: 4.5, tags: ["swift", "linux"],
      address: Address(city: "Paris", zip: nil), publishedAt: Date(timeIntervalSince1970: 1_700_000_000.123456),
      thumbnail: Data([1, 2, 3]), location: GeoPoint(latitude: 1, longitude: 2), author: backend.db.document("users/ada"),
      subtitle: nil)
    // As in the Apple SDK, setData(from:) queues the write; waitForPendingWrites() waits for the server.
    try ref.setData(from: article)
    try await ref.firestore.waitForPendingWrites()
    let raw = try await ref.getDocument()
    #expect(raw.get("subtitle") == nil)  // nil is omitted, not written as null
    #expect(raw.get("id") == nil)  // @DocumentID is not stored
    #expect(raw.get("status") as? String == "published")
    #expect(raw.get("publishedAt") is Timestamp)

    let decoded = try await ref.getDocument(as: Article.self)
    #expect(decoded.id == "a1")
    #expect(decoded.title == article.title && decoded.views == Int64.max && decoded.tags == article.tags)
    #expect(decoded.address == article.address && decoded.author == article.author && decoded.thumbnail == article.thumbnail)
    #expect(abs(decoded.publishedAt.timeIntervalSince(article.publishedAt)) < 0.000_001)
    let created = try #require(decoded.createdAt)
    // The server's timestamp, near the write (a cold emulator can take seconds between the two).
    #expect(abs(created.seconds - raw.updateTime!.seconds) <= 10)
  }

  @Test("addDocument(from:) and query results decode; errors name the field and the type found", arguments: Backend.all)
  func addAndDecodeErrors(_ backend: Backend) async throws {
    struct Item: Codable {
      var name: String
      var count: Int
    }
    let collection = backend.collection()
    let ref = try collection.addDocument(from: Item(name: "pen", count: 3))
    try await collection.firestore.waitForPendingWrites()
    let items = try await collection.getDocuments().documents.map { try $0.data(as: Item.self) }
    #expect(items.map(\.name) == ["pen"])
    try await ref.updateData(["count": "many"])
    let error = try await #require(throws: FirestoreError.self) { try await ref.getDocument(as: Item.self) }
    #expect(error.code == .invalidArgument)
    #expect(error.message.contains("\"count\"") && error.message.contains("String"))
    let missing = try await #require(throws: FirestoreError.self) { try await collection.document("nope").getDocument(as: Item.self) }
    #expect(missing.code == .notFound)
  }

  @Test("encoders in batches and transactions", arguments: Backend.all)
  func batchAndTransaction(_ backend: Backend) async throws {
    struct Counter: Codable { var n: Int }
    let c = backend.collection()
    let batch = backend.db.batch()
    try batch.setData(from: Counter(n: 1), forDocument: c.document("x"))
    try await batch.commit()
    try await backend.db.runTransaction { tx in
      let current = try await tx.getDocument(c.document("x")).data(as: Counter.self)
      try tx.setData(from: Counter(n: current.n + 1), forDocument: c.document("x"))
    }
    #expect(try await c.document("x").getDocument(as: Counter.self).n == 2)
  }
}
