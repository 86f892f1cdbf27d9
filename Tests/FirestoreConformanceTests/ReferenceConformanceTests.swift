import FirestoreTestSupport
import Foundation
import Testing

@testable import FirestoreClient

@Suite("Conformance: references")
struct ReferenceConformanceTests {
  @Test(
    "IDs with spaces, Unicode and URL metacharacters reach the server intact",
    arguments: Backend.all,
    // "\u{301}…": an ID that starts with a combining mark, which Swift glues onto the
    // slash before it (paths must be split and compared on bytes, as the server does).
    [
      "with space", "ünïcödé-日本", "100%", "what?", "hash#tag", "a+b", "semi;colon&amp=eq", "emoji😀", "colon:runQuery",
      "\u{301}combining-first",
    ])
  func awkwardIDs(_ backend: Backend, id: String) async throws {
    let collection = backend.collection("awkward")
    let ref = collection.document(id)
    try await ref.setData(["id": id, "self": ref])
    let snapshot = try await ref.getDocument()
    #expect(snapshot.exists)
    #expect(snapshot.documentID == id)
    let back = try #require(snapshot.get("self") as? DocumentReference)
    #expect(back.documentID == id)
    #expect(back.parent.path == collection.path)
    let listed = try await collection.getDocuments().documents.map(\.documentID)
    #expect(listed == [id])
    let sub = ref.collection("sub é").document("x y")
    try await sub.setData(["ok": true])
    #expect(try await sub.getDocument().get("ok") as? Bool == true)
    #expect(sub.path == "\(collection.path)/\(id)/sub é/x y")
  }

  /// As in the Apple SDK, whose snapshots and queries compare with `isEqual:`: code that
  /// compares them, or keeps queries in a set, compiles and means the same.
  @Test("queries and snapshots compare as the Apple SDK compares them", arguments: Backend.all)
  func equality(_ backend: Backend) async throws {
    let db = backend.firestore()
    let items = db.collection(backend.collection().path)
    let other = backend.firestore()
    #expect(items == db.collection(items.path))
    #expect(items as Query != other.collection(items.path), "another instance")
    let big = items.whereField("n", isGreaterThan: 1)
    #expect(big == items.whereField("n", isGreaterThan: 1))
    #expect(big == items.whereField("n", isGreaterThan: 1).order(by: "n"), "the same query as sent: the ordering is implied")
    #expect(big != items.whereField("n", isGreaterThan: 2))
    #expect(big.limit(to: 1) != big.limit(toLast: 1))
    #expect(Set<Query>([big, items.whereField("n", isGreaterThan: 1), items]).count == 2)
    let broken = items.whereField("n", in: [])
    #expect(broken == broken && broken != items.whereField("n", in: []), "a misused query equals only itself")

    try await items.document("a").setData(["n": 2])
    let first = try await items.document("a").getDocument(source: .server)
    let second = try await items.document("a").getDocument(source: .server)
    #expect(first == second, "read twice, unchanged")
    #expect(try await items.document("a").getDocument(source: .cache) != first, "from the cache: other metadata")
    let results = try await big.getDocuments(source: .server)
    #expect(try await big.getDocuments(source: .server) == results)
    #expect(results.documents.first == results.documentChanges.first?.document)
    try await items.document("a").setData(["n": 3])
    #expect(try await items.document("a").getDocument(source: .server) != first)
    #expect(try await big.getDocuments(source: .server) != results)
  }

  /// Numeric IDs (`__id<n>__`, as Datastore's integer keys appear in Firestore) are the one
  /// reserved form the server takes, and it orders them first, by number; the cache and a
  /// listener order them the same way (the Apple SDK's document ID ordering tests).
  @Test("numeric IDs are written and ordered as the server orders them, by reads, the cache and listeners", arguments: Backend.all)
  func numericIDs(_ backend: Backend) async throws {
    let db = backend.firestore()
    let items = db.collection(backend.collection().path)
    let ordered = [
      "__id-9223372036854775808__", "__id-2__", "__id7__", "__id12__", "__id9223372036854775807__", "12", "7", "A", "Aa", "__id",
      "__id1_", "_id1__", "a",
    ]
    let batch = db.batch()
    for id in ordered.shuffled() { batch.setData(["a": 1], forDocument: items.document(id)) }
    try await batch.commit()
    let byID = items.order(by: FieldPath.documentID())
    #expect(try await byID.getDocuments(source: .server).documents.map(\.documentID) == ordered)
    #expect(try await byID.getDocuments(source: .cache).documents.map(\.documentID) == ordered)
    let collector = SequenceCollector(byID.snapshots(includeMetadataChanges: true))
    #expect(try await collector.next { !$0.metadata.isFromCache }.documents.map(\.documentID) == ordered)
    collector.cancel()
    let error = await #expect(throws: FirestoreError.self) { try await items.document("__id1x__").setData(["a": 1]) }
    #expect(error?.code == .invalidArgument && error?.message.contains("reserved") == true)
  }

  @Test("subcollections at any depth, parents and auto-IDs", arguments: Backend.all)
  func deepPaths(_ backend: Backend) async throws {
    let root = backend.collection()
    let deep = root.document("a").collection("b").document("c").collection("d").document("e")
    try await deep.setData(["depth": 3])
    #expect(deep.parent.parent?.parent.parent?.documentID == "a")
    #expect(backend.db.document(deep.path) == deep)
    let added = try await root.addDocument(data: ["n": 1])
    #expect(added.documentID.count == 20)
    #expect(added.documentID.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) })
    #expect(try await added.getDocument().get("n") as? Int == 1)
  }

  @Test(
    "invalid paths are rejected before any request",
    arguments: Backend.all, ["", "a//b", ".", "..", "__reserved__", String(repeating: "x", count: 1501)])
  func invalidIDs(_ backend: Backend, id: String) async throws {
    let ref = backend.collection().document(id)
    let error = try await #require(throws: FirestoreError.self) { try await ref.getDocument() }
    #expect(error.code == .invalidArgument)
    #expect(error.requestPath == nil)  // never sent
  }

  @Test("collection/document parity is checked", arguments: Backend.all)
  func parity(_ backend: Backend) async throws {
    let doc = backend.db.document("only-a-collection")
    #expect(try await #require(throws: FirestoreError.self) { try await doc.getDocument() }.code == .invalidArgument)
    let collection = backend.db.collection("a/b")
    #expect(try await #require(throws: FirestoreError.self) { try await collection.getDocuments() }.code == .invalidArgument)
  }
}
