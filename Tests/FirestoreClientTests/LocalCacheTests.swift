import FirestoreWire
import Foundation
import Testing

@testable import FirestoreClient

/// The local cache's parts without a server: storages (eviction, transactions, groups),
/// applying writes locally, and pending server timestamps.
@Suite("Local cache")
struct LocalCacheTests {
  private static let root = "projects/p/databases/(default)/documents"

  private func document(_ path: String, _ fields: [String: Value], updateTime: Int64 = 1) -> Document {
    Document(
      name: Self.root + "/" + path, fields: fields, createTime: Timestamp(seconds: 1, nanoseconds: 0),
      updateTime: Timestamp(seconds: updateTime, nanoseconds: 0))
  }

  private func temporaryFile() -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("cache-\(UUID().uuidString).sqlite").path
  }

  private func storages() throws -> [(String, any CacheStorage, String?)] {
    let path = temporaryFile()
    return [
      ("memory", MemoryCacheStorage(sizeLimit: 1_048_576), nil),
      ("sqlite", try SQLiteCacheStorage(path: path, sizeLimit: 1_048_576), path),
    ]
  }

  @Test("a resumed listen reads its documents from the cache only when every one is there, at least as new")
  func cachedDocumentsAtLeast() {
    let store = LocalStore(settings: .memory(), projectID: "p", databaseID: "(default)", documentsRoot: Self.root, log: { _ in })
    let name = Self.root + "/c/a"
    let at10 = Timestamp(seconds: 10, nanoseconds: 0)
    store.didRead([(name, Document(name: name, fields: [:], createTime: at10, updateTime: at10))])
    #expect(store.cachedDocuments(atLeast: [name: at10])?.map(\.name) == [name])
    #expect(store.cachedDocuments(atLeast: [name: Timestamp(seconds: 11, nanoseconds: 0)]) == nil, "older than the listen had it")
    #expect(store.cachedDocuments(atLeast: [name: at10, Self.root + "/c/b": at10]) == nil, "one let go")
  }

  @Test("storages find a collection's documents, directly or as a group below a parent")
  func collections() throws {
    for (name, storage, file) in try storages() {
      defer { file.map(SQLiteCacheStorage.remove(path:)) }
      try storage.apply([
        ("users/ada", .document(document("users/ada", ["n": .integer(1)]))),
        ("users/ada/favorites/f1", .document(document("users/ada/favorites/f1", [:]))),
        ("users/bob/favorites/f2", .document(document("users/bob/favorites/f2", [:]))),
        ("favorites/f3", .document(document("favorites/f3", [:]))),
        ("usersx/z/favorites/f4", .document(document("usersx/z/favorites/f4", [:]))),
      ])
      func ids(_ parent: String, _ id: String, _ all: Bool) throws -> [String] {
        try storage.documents(parent: parent, collectionID: id, allDescendants: all).map { String($0.name.split(separator: "/").last!) }
          .sorted()
      }
      #expect(try ids("", "users", false) == ["ada"], "\(name)")
      #expect(try ids("users/ada", "favorites", false) == ["f1"], "\(name)")
      #expect(try ids("", "favorites", true) == ["f1", "f2", "f3", "f4"], "\(name)")
      #expect(try ids("users", "favorites", true) == ["f1", "f2"], "\(name)")
      #expect(try storage.document(at: "users/ada")?.fields == ["n": .integer(1)], "\(name)")
      try storage.apply([("users/ada", nil)])
      #expect(try storage.document(at: "users/ada") == nil, "\(name)")
    }
  }

  @Test("storages keep the word that a document is missing apart from the documents, with its time and size")
  func missingEntries() throws {
    for (name, storage, file) in try storages() {
      defer { file.map(SQLiteCacheStorage.remove(path:)) }
      let readTime = Timestamp(seconds: 7, nanoseconds: 5)
      let ada = document("users/ada", ["n": .integer(1)])
      try storage.apply([("users/ada", .document(ada)), ("users/bob", .missing(readTime))])
      func ids() throws -> [String] {
        try storage.documents(parent: "", collectionID: "users", allDescendants: false).map { String($0.name.split(separator: "/").last!) }
          .sorted()
      }
      #expect(try ids() == ["ada"], "\(name): a missing entry is no document of its collection")
      #expect(try storage.entry(at: "users/bob") == .missing(readTime), "\(name)")
      #expect(try storage.document(at: "users/bob") == nil, "\(name)")
      #expect(try storage.version(at: "users/bob") == readTime, "\(name)")
      #expect(try storage.entry(at: "users/carl") == nil, "\(name): nothing known")
      let sizes = { (entries: [(String, CacheEntry)]) in entries.map { $0.1.size(path: $0.0) }.reduce(0, +) }
      #expect(storage.byteCount == sizes([("users/ada", .document(ada)), ("users/bob", .missing(readTime))]), "\(name)")

      // A document found again replaces the word, and a deleted one becomes missing.
      let bob = document("users/bob", [:], updateTime: 9)
      try storage.apply([("users/bob", .document(bob)), ("users/ada", .missing(nil))])
      #expect(try ids() == ["bob"], "\(name)")
      #expect(try storage.entry(at: "users/ada") == .missing(nil), "\(name)")
      #expect(try storage.version(at: "users/ada") == nil, "\(name)")
      #expect(try storage.entry(at: "users/bob") == .document(bob), "\(name)")
      #expect(storage.byteCount == sizes([("users/ada", .missing(nil)), ("users/bob", .document(bob))]), "\(name)")

      // Letting go of an entry forgets it either way.
      try storage.apply([("users/ada", nil), ("users/bob", nil)])
      #expect(try storage.entry(at: "users/ada") == nil, "\(name)")
      #expect(try storage.entry(at: "users/bob") == nil, "\(name)")
      #expect(storage.byteCount == 0, "\(name)")
    }
  }

  @Test("missing entries are evicted with the documents, least recently used first")
  func missingEntriesEvicted() throws {
    for (name, storage, file) in try storages() {
      defer { file.map(SQLiteCacheStorage.remove(path:)) }
      let big = Value.string(String(repeating: "x", count: 100_000))
      try storage.apply([("c/gone", .missing(nil))])
      for i in 0..<8 { try storage.apply([("c/d\(i)", .document(document("c/d\(i)", ["b": big])))]) }
      // d0 is read, so the missing entry (older) and then d1 are the least recently used.
      #expect(try storage.document(at: "c/d0") != nil)
      for i in 8..<12 { try storage.apply([("c/d\(i)", .document(document("c/d\(i)", ["b": big])))]) }
      #expect(storage.byteCount <= storage.sizeLimit, "\(name)")
      #expect(try storage.entry(at: "c/gone") == nil, "\(name): the oldest entry goes first")
      #expect(try storage.document(at: "c/d0") != nil, "\(name)")
      #expect(try storage.document(at: "c/d1") == nil, "\(name)")
    }
  }

  @Test("an SQLite cache reopens with its missing entries; a file without their table gains it")
  func sqliteMissingEntriesPersist() throws {
    let path = temporaryFile()
    defer { SQLiteCacheStorage.remove(path: path) }
    let time = Timestamp(seconds: 3, nanoseconds: 4)
    var bytes = 0
    do {
      let storage = try SQLiteCacheStorage(path: path, sizeLimit: 1_048_576)
      try storage.apply([("a/b", .missing(time)), ("a/c", .document(document("a/c", [:])))])
      bytes = storage.byteCount
    }
    do {
      let reopened = try SQLiteCacheStorage(path: path, sizeLimit: 1_048_576)
      #expect(reopened.byteCount == bytes)
      #expect(try reopened.entry(at: "a/b") == .missing(time))
    }
    // A file written before missing entries were kept.
    let connection = try SQLiteConnection(path: path)
    try connection.execute("DROP TABLE missing_documents; UPDATE meta SET value = '0' WHERE key = 'bytes'")
    connection.close()
    let older = try SQLiteCacheStorage(path: path, sizeLimit: 1_048_576)
    #expect(try older.entry(at: "a/b") == nil)
    try older.apply([("a/b", .missing(time))])
    #expect(try older.entry(at: "a/b") == .missing(time))
    #expect(try older.document(at: "a/c") != nil)
  }

  @Test("storages evict the least recently used documents when over their size")
  func eviction() throws {
    for (name, storage, file) in try storages() {
      defer { file.map(SQLiteCacheStorage.remove(path:)) }
      let big = Value.string(String(repeating: "x", count: 100_000))
      for i in 0..<8 { try storage.apply([("c/d\(i)", .document(document("c/d\(i)", ["b": big])))]) }
      // d0 is read, so d1 becomes the least recently used.
      #expect(try storage.document(at: "c/d0") != nil)
      for i in 8..<12 { try storage.apply([("c/d\(i)", .document(document("c/d\(i)", ["b": big])))]) }
      #expect(storage.byteCount <= storage.sizeLimit, "\(name)")
      #expect(try storage.document(at: "c/d0") != nil, "\(name): a recently read document stays")
      #expect(try storage.document(at: "c/d1") == nil, "\(name): the least recently used goes first")
      #expect(try storage.document(at: "c/d11") != nil, "\(name)")
    }
  }

  @Test("an SQLite cache reopens with its documents and size")
  func sqliteReopens() throws {
    let path = temporaryFile()
    defer { SQLiteCacheStorage.remove(path: path) }
    var bytes = 0
    do {
      let storage = try SQLiteCacheStorage(path: path, sizeLimit: 1_048_576)
      try storage.apply([
        ("a/b", .document(document("a/b", ["v": .double(1.5), "m": .map(["t": .timestamp(Timestamp(seconds: 9, nanoseconds: 7))])])))
      ])
      bytes = storage.byteCount
    }
    let reopened = try SQLiteCacheStorage(path: path, sizeLimit: 1_048_576)
    #expect(reopened.byteCount == bytes)
    #expect(
      try reopened.document(at: "a/b")
        == document("a/b", ["v": .double(1.5), "m": .map(["t": .timestamp(Timestamp(seconds: 9, nanoseconds: 7))])]))
  }

  @Test("an SQLite file of another schema version is refused, naming both versions")
  func sqliteSchemaMismatch() throws {
    let path = temporaryFile()
    defer { SQLiteCacheStorage.remove(path: path) }
    do {
      let storage = try SQLiteCacheStorage(path: path, sizeLimit: 1_048_576)
      try storage.apply([("a/b", .document(document("a/b", [:])))])
    }
    let connection = try SQLiteConnection(path: path)
    try connection.execute("UPDATE meta SET value = '99' WHERE key = 'schema'")
    connection.close()
    #expect {
      _ = try SQLiteCacheStorage(path: path, sizeLimit: 1_048_576)
    } throws: { error in
      "\(error)".contains("99") && "\(error)".contains(SQLiteCacheStorage.schemaVersion)
    }
  }

  @Test("writes apply locally as on the server: masks, preconditions and transforms")
  func localWrites() {
    let base = document("c/d", ["a": .integer(1), "m": .map(["x": .integer(1), "y": .integer(2)]), "n": .integer(5)])
    let now = Timestamp(seconds: 100, nanoseconds: 0)
    let patch = Write(
      operation: .update(Document(name: base.name, fields: ["m": .map(["x": .integer(9)])])), updateMask: ["m.x", "gone"],
      updateTransforms: [
        FieldTransform(fieldPath: "n", kind: .increment(.integer(2))), FieldTransform(fieldPath: "at", kind: .serverTimestamp),
        FieldTransform(fieldPath: "l", kind: .appendMissingElements([.string("s")])),
      ], currentDocument: .exists(true))
    let pending = LocalWriteApplier.apply(patch, to: base, localWriteTime: now, transformResults: nil)
    #expect(pending?.fields["m"] == .map(["x": .integer(9), "y": .integer(2)]))
    #expect(pending?.fields["n"] == .integer(7))
    #expect(pending?.fields["l"] == .array([.string("s")]))
    #expect((pending?.fields["at"] ?? .null).pendingServerTimestamp?.localWriteTime == now)
    let confirmed = LocalWriteApplier.apply(
      patch, to: base, localWriteTime: now, transformResults: [.integer(7), .timestamp(Timestamp(seconds: 101, nanoseconds: 0)), .null])
    #expect(confirmed?.fields["at"] == .timestamp(Timestamp(seconds: 101, nanoseconds: 0)))
    #expect(confirmed?.fields["l"] == .array([.string("s")]))
    // An update of a missing document does nothing; a create over an existing one neither.
    #expect(LocalWriteApplier.apply(patch, to: nil, localWriteTime: now, transformResults: nil) == nil)
    let create = Write(operation: .update(Document(name: base.name, fields: [:])), currentDocument: .exists(false))
    #expect(LocalWriteApplier.apply(create, to: base, localWriteTime: now, transformResults: nil) == base)
    #expect(LocalWriteApplier.apply(Write(operation: .delete(base.name)), to: base, localWriteTime: now, transformResults: nil) == nil)
    #expect(LocalWriteApplier.isBlind(create))
    #expect(!LocalWriteApplier.isBlind(patch))
  }

  @Test("a pending server timestamp reads as null, the estimate or the previous value")
  func serverTimestampBehaviors() {
    let before = Value.timestamp(Timestamp(seconds: 5, nanoseconds: 0))
    let now = Timestamp(seconds: 100, nanoseconds: 0)
    let first = Value.pendingServerTimestamp(localWriteTime: now, previous: before)
    // A second pending write keeps the value from before the first.
    let second = Value.pendingServerTimestamp(localWriteTime: Timestamp(seconds: 200, nanoseconds: 0), previous: first)
    let fields: [String: Value] = ["at": second, "nested": .array([.map(["t": first])])]
    #expect(ServerTimestampSentinel.resolve(fields, .none) == ["at": .null, "nested": .array([.map(["t": .null])])])
    #expect(ServerTimestampSentinel.resolve(fields, .estimate)["at"] == .timestamp(Timestamp(seconds: 200, nanoseconds: 0)))
    #expect(ServerTimestampSentinel.resolve(fields, .previous)["at"] == before)
    #expect(ServerTimestampSentinel.contains(fields))
    #expect(!ServerTimestampSentinel.contains(["a": .map(["b": .integer(1)])]))
  }

  @Test(
    "a document's cache path is its name below this database's root, and only that",
    arguments: [
      ("projects/p/databases/(default)/documents/users/ada", "users/ada"),
      ("projects/p/databases/(default)/documents/cités/é/x", "cités/é/x"),
      ("projects/p/databases/(default)/documents/", nil), ("projects/p/databases/(default)/documents", nil),
      ("projects/p/databases/(default)/documentsX/users/ada", nil), ("projects/q/databases/(default)/documents/users/ada", nil),
    ] as [(String, String?)])
  func cachePath(name: String, path: String?) {
    let state = LocalStoreState(
      settings: .none, filePath: nil, documentsRoot: "projects/p/databases/(default)/documents", owner: "test", user: nil, log: { _ in })
    #expect(state.path(of: name) == path)
  }
}
