import FirestoreTestSupport
import FirestoreWire
import Foundation
import Testing

@testable import FirestoreClient

/// The persistent cache's directory and files are the user's alone.
@Suite("Cache file access")
struct CacheFileAccessTests {
  private static let root = "projects/p/databases/(default)/documents"

  private func mode(_ path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return (attributes[.posixPermissions] as? Int ?? -1) & 0o777
  }

  private func openState(_ directory: URL) -> LocalStoreState {
    LocalStoreState(
      settings: .persistent(directory: directory, sizeBytes: 1_048_576), filePath: directory.appendingPathComponent("cache.sqlite").path,
      documentsRoot: Self.root, owner: "test", user: nil, log: { _ in })
  }

  private func write(_ state: inout LocalStoreState) throws {
    let document = Document(
      name: Self.root + "/users/ada", fields: ["n": .integer(1)], createTime: Timestamp(seconds: 1, nanoseconds: 0),
      updateTime: Timestamp(seconds: 1, nanoseconds: 0))
    try state.storage?.apply([("users/ada", .document(document))])
  }

  @Test("a new cache directory is 0700 and its database, WAL and shared-memory files 0600")
  func newFilesArePrivate() throws {
    let parent = try makeTemporaryDirectory("firestore-cache-mode")
    defer { try? FileManager.default.removeItem(at: parent) }
    let directory = parent.appendingPathComponent("nested/cache", isDirectory: true)
    var state = openState(directory)
    try write(&state)
    #expect(state.storage is SQLiteCacheStorage)
    #expect(try mode(directory.path) == 0o700)
    let file = directory.appendingPathComponent("cache.sqlite").path
    for name in [file, file + "-wal", file + "-shm"] where FileManager.default.fileExists(atPath: name) {
      #expect(try mode(name) == 0o600, "\(name)")
    }
    #expect(FileManager.default.fileExists(atPath: file + "-wal"))
    state.storage?.close()
  }

  @Test("an existing directory and file open to others are tightened")
  func existingFilesAreTightened() throws {
    let directory = try makeTemporaryDirectory("firestore-cache-open")
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("cache.sqlite").path
    try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: directory.path)
    #expect(FileManager.default.createFile(atPath: file, contents: nil, attributes: [.posixPermissions: 0o666]))
    try FileManager.default.setAttributes([.posixPermissions: 0o666], ofItemAtPath: file)
    var state = openState(directory)
    try write(&state)
    #expect(state.storage is SQLiteCacheStorage)
    #expect(try mode(directory.path) == 0o700)
    #expect(try mode(file) == 0o600)
    state.storage?.close()
  }

  @Test("a directory another user owns is refused and the cache kept in memory", .enabled(if: geteuid() == 0))
  func foreignDirectoryIsRefused() throws {
    let directory = try makeTemporaryDirectory("firestore-cache-foreign")
    defer { try? FileManager.default.removeItem(at: directory) }
    #expect(chown(directory.path, 65534, 65534) == 0)
    let state = openState(directory)
    #expect(state.storage is MemoryCacheStorage)
    #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("cache.sqlite").path))
  }

  @Test("the default directory is the user's own")
  func defaultDirectoryIsPerUser() {
    let path = PersistentCacheSettings.defaultDirectory.path
    #expect(path.hasSuffix("/firestore") || path.hasSuffix("/firestore-\(geteuid())"))
    #expect(path != FileManager.default.temporaryDirectory.appendingPathComponent("firestore").path)
  }
}
