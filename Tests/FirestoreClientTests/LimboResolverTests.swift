import FirestoreEngine
import FirestoreWire
import Testing

@testable import FirestoreClient

/// The listens that resolve limbo documents: one per document, and not too many at once.
@Suite("Limbo resolver")
struct LimboResolverTests {
  private static let database = "projects/p/databases/(default)"

  private static func at(_ seconds: Int64) -> Timestamp { Timestamp(seconds: seconds, nanoseconds: 0) }

  /// A store whose one query view holds `count` documents in limbo (a set sent again whole
  /// without them), and a resolver for it whose manager has the network off: targets are
  /// registered and nothing is sent.
  private static func resolving(_ count: Int) async -> (
    store: LocalStore, documents: [Document], manager: ListenManager, resolver: LimboResolver
  ) {
    let root = database + "/documents"
    let store = LocalStore(settings: .memory(), projectID: "p", databaseID: "(default)", documentsRoot: root, log: { _ in })
    let query = StructuredQuery(from: [.init(collectionID: "c")])
    let view = store.addView(.query(query, parent: "", collectionID: "c", allDescendants: false), includeMetadataChanges: false) { _ in }
    let documents = (0..<count).map { i in Document(name: root + "/c/d\(1000 + i)", fields: [:], createTime: at(1), updateTime: at(1)) }
    store.applyWatch(view, WatchSnapshot(documents: documents, changes: [], readTime: at(2), isInitial: true))
    store.applyWatch(view, WatchSnapshot(documents: [], changes: [], readTime: at(3), isInitial: false))
    let manager = ListenManager()
    await manager.setNetworkEnabled(false)
    let resolver = LimboResolver(store: store, manager: manager, settings: FirestoreSettings().configuration, database: database)
    return (store, documents, manager, resolver)
  }

  @Test("at most maxListens limbo documents are listened to at once; the others start as listens end")
  func listensAreCapped() async {
    let (store, documents, manager, resolver) = await Self.resolving(LimboResolver.maxListens + 50)
    #expect(store.limboNames.count == documents.count)
    await resolver.reconcile()
    #expect(await manager.listenerCount == LimboResolver.maxListens)
    for document in documents.prefix(30) { store.resolveLimbo(document.name, nil) }
    await resolver.reconcile()
    #expect(await manager.listenerCount == LimboResolver.maxListens)
    for document in documents { store.resolveLimbo(document.name, nil) }
    #expect(store.limboNames.isEmpty)
    await resolver.reconcile()
    #expect(await manager.listenerCount == 0)
  }

  @Test("shut down, the resolver ends its listens and starts no more")
  func shutdownEndsListens() async {
    let (_, _, manager, resolver) = await Self.resolving(1)
    await resolver.reconcile()
    #expect(await manager.listenerCount == 1)
    await resolver.shutdown()
    #expect(await manager.listenerCount == 0)
    await resolver.reconcile()
    #expect(await manager.listenerCount == 0)
  }
}
