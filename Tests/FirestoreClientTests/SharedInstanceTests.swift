import FirestoreTestSupport
import Foundation
import Testing

@testable import FirestoreClient

/// `Firestore.firestore()`, its project found as the server SDKs find it, and
/// `settings.cacheSettings` in the Apple SDK's spelling.
@Suite("Firestore.firestore() and cache settings")
struct SharedInstanceTests {
  @Test("the project comes from GOOGLE_CLOUD_PROJECT, then GCLOUD_PROJECT")
  func projectFromEnvironment() {
    #expect(Firestore.detectedProjectID(environment: ["GOOGLE_CLOUD_PROJECT": "a", "GCLOUD_PROJECT": "b"]) == "a")
    #expect(Firestore.detectedProjectID(environment: ["GCLOUD_PROJECT": "b"]) == "b")
    #expect(Firestore.detectedProjectID(environment: [:]) == nil)
  }

  @Test("then from the credentials file: a service account key's project_id, an authorized user's quota project")
  func projectFromCredentials() throws {
    let directory = try makeTemporaryDirectory("firestore-env")
    defer { try? FileManager.default.removeItem(at: directory) }
    let key = directory.appendingPathComponent("key.json")
    try Data(AuthFixtures.serviceAccountJSON().utf8).write(to: key)
    #expect(Firestore.detectedProjectID(environment: ["GOOGLE_APPLICATION_CREDENTIALS": key.path]) == "demo-auth")
    let user = directory.appendingPathComponent("application_default_credentials.json")
    try Data(
      #"{"type":"authorized_user","client_id":"c","client_secret":"s","refresh_token":"r","quota_project_id":"quota-project"}"#.utf8
    ).write(to: user)
    #expect(Firestore.detectedProjectID(environment: ["CLOUDSDK_CONFIG": directory.path]) == "quota-project")
  }

  @Test("then from gcloud's active configuration; with the emulator and nothing else, Go's placeholder project")
  func projectFromGcloudAndEmulator() throws {
    let directory = try makeTemporaryDirectory("firestore-env")
    defer { try? FileManager.default.removeItem(at: directory) }
    try FileManager.default.createDirectory(at: directory.appendingPathComponent("configurations"), withIntermediateDirectories: true)
    try Data("work\n".utf8).write(to: directory.appendingPathComponent("active_config"))
    try Data("[core]\naccount = a@example.com\nproject = gcloud-project\n".utf8)
      .write(to: directory.appendingPathComponent("configurations/config_work"))
    #expect(Firestore.detectedProjectID(environment: ["CLOUDSDK_CONFIG": directory.path]) == "gcloud-project")
    #expect(Firestore.detectedProjectID(environment: ["FIRESTORE_EMULATOR_HOST": "127.0.0.1:1"]) == "dummy-emulator-firestore-project")
    #expect(
      Firestore.detectedProjectID(environment: ["FIRESTORE_EMULATOR_HOST": "127.0.0.1:1", "GOOGLE_CLOUD_PROJECT": "demo-x"]) == "demo-x")
  }

  @Test("without a project every call fails with invalidArgument saying how to name one")
  func noProject() async throws {
    let db = Firestore.makeShared(database: "(default)", environment: [:])
    let error = await #expect(throws: FirestoreError.self) { try await db.document("a/b").getDocument() }
    #expect(error?.code == .invalidArgument)
    #expect(error?.message.contains("GOOGLE_CLOUD_PROJECT") == true)
  }

  @Test("the shared instance's cache is persistent, as the Apple SDK's is, until its settings say otherwise before it starts")
  func sharedInstanceCache() async throws {
    let db = Firestore.makeShared(
      database: "(default)", environment: ["FIRESTORE_EMULATOR_HOST": "127.0.0.1:1", "GOOGLE_CLOUD_PROJECT": "demo-x"])
    #expect(
      db.settings.cache == .persistent(directory: PersistentCacheSettings.defaultDirectory, sizeBytes: LocalCacheSettings.defaultSizeBytes))
    let settings = db.settings
    settings.cacheSettings = MemoryCacheSettings()
    db.settings = settings
    #expect(db.persistentCacheIndexManager == nil, "a memory cache has no index manager")
    try await db.terminate()
    // Terminated before it started, an instance opens no cache file.
    let unstarted = Firestore.makeShared(
      database: "(default)", environment: ["FIRESTORE_EMULATOR_HOST": "127.0.0.1:1", "GOOGLE_CLOUD_PROJECT": "demo-y"])
    try await unstarted.terminate()
    #expect(unstarted.cacheFilePath.map { FileManager.default.fileExists(atPath: $0) } == false)
    try await unstarted.clearPersistence()
  }

  @Test("Firestore.firestore() returns one instance per database until it is terminated")
  func sharedInstance() async throws {
    let database = "shared-\(UUID().uuidString.prefix(8))"
    let first = Firestore.firestore(database: database)
    #expect(Firestore.firestore(database: database) === first)
    #expect(Firestore.firestore() !== first)
    try await first.terminate()
    #expect(Firestore.firestore(database: database) !== first)
  }

  @Test("cacheSettings takes the Apple SDK's types and sets cache")
  func cacheSettings() throws {
    let settings = FirestoreSettings(environment: [:])
    settings.cacheSettings = PersistentCacheSettings(sizeBytes: 5 * 1_048_576 as NSNumber)
    #expect(settings.cache == .persistent(directory: PersistentCacheSettings.defaultDirectory, sizeBytes: 5 * 1_048_576))
    settings.cacheSettings = MemoryCacheSettings()
    #expect(settings.cache == .memory(), "least recently used, of the default size, as in the Apple SDK")
    settings.cacheSettings = MemoryCacheSettings(garbageCollectorSettings: MemoryLRUGCSettings(sizeBytes: 2_000_000))
    #expect(settings.cache == .memory(sizeBytes: 2_000_000))
    settings.cacheSettings = MemoryCacheSettings(garbageCollectorSettings: MemoryEagerGCSetting())
    #expect(settings.cache == .eagerMemory)
    settings.cacheSettings = PersistentCacheSettings(sizeBytes: NSNumber(value: FirestoreCacheSizeUnlimited))
    #expect(settings.cache.validationError == nil)
    #expect(settings.cache.sizeLimit == Int.max)
    settings.cacheSettings = MemoryCacheSettings(garbageCollectorSettings: MemoryLRUGCSettings(sizeBytes: 1000))
    #expect(settings.cache.validationError?.message.contains("below the minimum") == true)
    #expect(PersistentCacheSettings.defaultDirectory.path.hasSuffix("/firestore"))
  }
}
