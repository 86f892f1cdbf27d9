import Dispatch
import FirestorePlatform
import FirestoreTestSupport
import FirestoreWire
import Foundation
import Testing

@testable import FirestoreClient

/// The persistent cache's file under pressure from outside one store: another connection
/// holding the write lock, several instances sharing the file, a rebuild after damage, and
/// document IDs SQLite's C strings would cut short.
@Suite("Local cache file sharing")
struct LocalCacheSharingTests {
  private static let root = "projects/p/databases/(default)/documents"
  private static let limit = LocalCacheSettings.minimumSizeBytes

  private func document(_ path: String, _ fields: [String: Value]) -> Document {
    Document(
      name: Self.root + "/" + path, fields: fields, createTime: Timestamp(seconds: 1, nanoseconds: 0),
      updateTime: Timestamp(seconds: 1, nanoseconds: 0))
  }

  /// A document of about 100 KB, a tenth of the cache's size.
  private func big(_ path: String) -> (name: String, document: Document?) {
    (Self.root + "/" + path, document(path, ["text": .string(String(repeating: "x", count: 100_000))]))
  }

  private func file(in directory: URL) -> String {
    directory.appendingPathComponent(LocalStore.fileName(projectID: "p", databaseID: "(default)")).path
  }

  private func store(_ directory: URL, log: @escaping @Sendable (String) -> Void = { _ in }) -> LocalStore {
    LocalStore(
      settings: .persistent(directory: directory, sizeBytes: Self.limit), projectID: "p", databaseID: "(default)",
      documentsRoot: Self.root, log: log)
  }

  /// Hands a connection to the thread that releases its lock; SQLite serializes its use.
  private final class Holder: @unchecked Sendable {
    let connection: SQLiteConnection
    init(_ connection: SQLiteConnection) { self.connection = connection }
  }

  @Test("a change while another connection holds the write lock is skipped and logged once, not waited for")
  func lockedFileSkipsTheChange() async throws {
    let directory = try makeTemporaryDirectory("firestore-cache")
    defer { try? FileManager.default.removeItem(at: directory) }
    let messages = Locked<[String]>([])
    let store = store(directory) { message in messages.withLock { $0.append(message) } }
    let holder = Holder(try SQLiteConnection(path: file(in: directory)))
    try holder.connection.execute("BEGIN IMMEDIATE")
    // The store waits for a lock only briefly, then skips the change.
    #expect(SQLiteConnection.busyTimeoutMilliseconds <= 100)
    // The lock is released once the store's calls return, or at the hang limit: a store that
    // waited for it without end would then get it and cache, and fail below.
    let callsReturned = DispatchSemaphore(value: 0)
    async let released: Void = Blocking.run {
      _ = callsReturned.wait(timeout: .now() + .seconds(Int(hangLimit.components.seconds)))
      try? holder.connection.execute("COMMIT")
    }
    store.didRead([(Self.root + "/users/ada", document("users/ada", ["n": .integer(1)]))])
    store.flush()
    store.didRead([(Self.root + "/users/bob", document("users/bob", ["n": .integer(2)]))])
    store.flush()
    callsReturned.signal()
    await released
    #expect(store.document(Self.root + "/users/ada") == nil, "the locked change was skipped")
    #expect(store.document(Self.root + "/users/bob") == nil)
    let logged = messages.withLock { $0 }
    #expect(logged.count == 1, "\(logged)")
    #expect(logged.first?.contains("locked") == true, "\(logged)")
    // The lock is gone: changes reach the file again.
    store.didRead([(Self.root + "/users/ada", document("users/ada", ["n": .integer(1)]))])
    store.flush()
    #expect(store.document(Self.root + "/users/ada")?.document?.fields == ["n": .integer(1)])
    #expect(messages.withLock { $0.count } == 1)
  }

  @Test("after a damaged cache is rebuilt, another instance over the directory sees what it caches")
  func rebuildKeepsTheNewFile() throws {
    let directory = try makeTemporaryDirectory("firestore-cache")
    defer { try? FileManager.default.removeItem(at: directory) }
    let messages = Locked<[String]>([])
    let first = store(directory) { message in messages.withLock { $0.append(message) } }
    first.didRead([(Self.root + "/users/ada", document("users/ada", ["n": .integer(1)]))])
    first.flush()
    let damage = try SQLiteConnection(path: file(in: directory))
    try damage.execute("UPDATE documents SET body = x'7b' WHERE path = 'users/ada'")
    damage.close()
    // Reading the damaged document discards the file and rebuilds it empty.
    #expect(first.document(Self.root + "/users/ada") == nil)
    #expect(messages.withLock { $0.count } == 1)
    first.didRead([(Self.root + "/users/bob", document("users/bob", ["n": .integer(2)]))])
    first.flush()
    #expect(first.document(Self.root + "/users/bob")?.document?.fields == ["n": .integer(2)])
    let second = store(directory)
    #expect(second.document(Self.root + "/users/bob")?.document?.fields == ["n": .integer(2)])
    #expect(messages.withLock { $0.count } == 1, "\(messages.withLock { $0 })")
  }

  /// A storage whose data reads as damaged, recording whether the file still held `marker`
  /// (so was not yet deleted and rebuilt) when it was closed.
  private final class DamagedStorage: CacheStorage {
    let file: String
    let marker: String
    var closedBeforeRemoval: Bool?
    init(file: String, marker: String) {
      self.file = file
      self.marker = marker
    }
    let sizeLimit = LocalCacheSettings.minimumSizeBytes
    var byteCount: Int { 0 }
    func entry(at path: String) throws(CacheStorageError) -> CacheEntry? {
      throw CacheStorageError(description: "damaged")
    }
    func version(at path: String) -> Timestamp? { nil }
    func documents(parent: String, collectionID: String, allDescendants: Bool) -> [Document] { [] }
    func apply(_ changes: [(path: String, entry: CacheEntry?)], isPinned: (String) -> Bool) {}
    func namedQuery(_ name: String) -> NamedQuery? { nil }
    func bundleCreateTime(_ id: String) -> Timestamp? { nil }
    func saveBundle(_ metadata: BundleMetadata, queries: [NamedQuery]) {}
    func close() {
      let bytes = FileManager.default.contents(atPath: file) ?? Data()
      closedBeforeRemoval = bytes.range(of: Data(marker.utf8)) != nil
    }
  }

  @Test("a damaged storage is closed before its file is deleted, not when its last reference goes")
  func damagedStorageClosedBeforeRemoval() throws {
    let directory = try makeTemporaryDirectory("firestore-cache")
    defer { try? FileManager.default.removeItem(at: directory) }
    var state = LocalStoreState(
      settings: .persistent(directory: directory, sizeBytes: Self.limit), filePath: file(in: directory), documentsRoot: Self.root,
      owner: "test", user: nil, log: { _ in })
    // The original file holds a marker (closing the last connection writes it into the file).
    let marker = "marker-\(UUID().uuidString)"
    try state.storage?.apply([("m/\(marker)", .document(document("m/\(marker)", [:])))])
    state.storage?.close()
    let damaged = DamagedStorage(file: file(in: directory), marker: marker)
    state.storage = damaged
    #expect(state.cached(Self.root + "/users/ada") == nil)
    #expect(damaged.closedBeforeRemoval == true)
    #expect(state.storage is SQLiteCacheStorage, "rebuilt as a file again")
    #expect(state.cached(Self.root + "/m/\(marker)") == nil, "rebuilt empty")
  }

  @Test("document IDs differing after a U+0000 are distinct documents in the persistent cache")
  func nulInDocumentID() throws {
    let directory = try makeTemporaryDirectory("firestore-cache")
    defer { try? FileManager.default.removeItem(at: directory) }
    let plain = document("users/a", ["v": .string("plain")])
    let withNUL = document("users/a\u{0}b", ["v": .string("with NUL")])
    let written = store(directory)
    written.didRead([(plain.name, plain), (withNUL.name, withNUL)])
    written.flush()
    // A second instance reads both back from the file.
    let reopened = store(directory)
    #expect(reopened.document(plain.name)?.document == plain)
    #expect(reopened.document(withNUL.name)?.document == withNUL)
    let storage = try SQLiteCacheStorage(path: file(in: directory), sizeLimit: Self.limit)
    let names = try storage.documents(parent: "", collectionID: "users", allDescendants: false).map(\.name).sorted()
    #expect(names == [plain.name, withNUL.name])
  }

  @Test("instances sharing a file evict by the file's total, not by what each wrote")
  func sharedFileEvictsByItsTotal() throws {
    let directory = try makeTemporaryDirectory("firestore-cache")
    defer { try? FileManager.default.removeItem(at: directory) }
    let a = store(directory)
    let b = store(directory)
    // Each writes 60 % of the size: together over it, so the second write evicts.
    a.didRead((0..<6).map { big("one/d\($0)") })
    a.flush()
    b.didRead((0..<6).map { big("two/d\($0)") })
    b.flush()
    let total = try SQLiteCacheStorage(path: file(in: directory), sizeLimit: Self.limit).byteCount
    #expect(total <= Self.limit)
    #expect(a.cachedBytes == total)
    #expect(b.cachedBytes == total)
    #expect(b.document(Self.root + "/two/d5") != nil)

    // b removes nearly everything; a's next writes fit easily and evict nothing.
    let names = (0..<6).flatMap { [Self.root + "/one/d\($0)", Self.root + "/two/d\($0)"] }
    b.didRead(names.dropLast().map { ($0, nil) })
    b.flush()
    a.didRead((0..<5).map { big("three/d\($0)") })
    a.flush()
    for name in [names.last!] + (0..<5).map({ Self.root + "/three/d\($0)" }) {
      #expect(a.document(name) != nil, "\(name) was evicted from a cache far below its size")
    }
  }

  @Test("a queue file written before batches kept their user gains the column in place; its batches' user is not known")
  func queueWithoutUserColumn() throws {
    let directory = try makeTemporaryDirectory("firestore-cache")
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = file(in: directory)
    do {
      let storage = try SQLiteCacheStorage(path: path, sizeLimit: Self.limit)
      _ = try storage.addMutation(Data(#"{"writes":[]}"#.utf8), localWriteTime: .now(), owner: "gone", user: nil, minimumID: 1)
      storage.close()
      let connection = try SQLiteConnection(path: path)
      try connection.execute("ALTER TABLE mutations DROP COLUMN user")
      connection.close()
    }
    let storage = try SQLiteCacheStorage(path: path, sizeLimit: Self.limit)
    defer { storage.close() }
    let claimed = try storage.claimMutations(owner: "new") { _ in true }
    #expect(claimed.map(\.id) == [1])
    #expect(claimed.first?.user == nil)
    let id = try storage.addMutation(
      Data(#"{"writes":[]}"#.utf8), localWriteTime: .now(), owner: "new", user: .authenticated("uid:ada"), minimumID: 1)
    try storage.setMutationUser([1], .unauthenticated)
    #expect(try storage.claimMutations(owner: "new") { _ in false }.map(\.user) == [.unauthenticated, .authenticated("uid:ada")])
    #expect(id == 2)
  }
}
