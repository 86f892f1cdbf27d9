import FirestoreClient
import FirestoreRepositories
import FirestoreTestSupport
import Foundation
import Testing

/// ``UserProfileRepository``: three load states, cache first then the server,
/// live follow, lenient models — on the mock and the emulator.
@Suite("Repositories: user profile")
struct UserProfileRepositoryTests {
  typealias Support = RepositoryTestSupport

  /// A fresh user ID under a users collection the tests share (the repository's path is
  /// fixed: `users/{uid}`).
  static func uid(_ name: String) -> String { "\(name)-\(UUID().uuidString.prefix(8))" }

  /// A client with an empty cache whose network can be cut.
  static func client(_ backend: Backend) -> (Firestore, SwitchableTransport) {
    Ledger.record(backend)
    let transport = SwitchableTransport(wrapping: backend.transport)
    let db = backend.firestore {
      $0.transport = transport
      $0.retryPolicy = .none
    }
    return (db, transport)
  }

  /// A fresh user whose document holds only `name`, and that user's repository on a
  /// ``client(_:)`` of its own.
  static func namedUser(
    _ name: String, _ backend: Backend
  ) async throws -> (uid: String, repository: UserProfileRepository, db: Firestore, transport: SwitchableTransport) {
    let uid = Self.uid(name.lowercased())
    try await backend.db.document("users/\(uid)").setData(["name": name])
    let (db, transport) = client(backend)
    return (uid, try UserProfileRepository(firestore: db, uid: uid), db, transport)
  }

  static func states<T>(_ stream: AsyncStream<LoadState<T>>) async -> [LoadState<T>] {
    var all: [LoadState<T>] = []
    for await state in stream { all.append(state) }
    return all
  }

  @Test("cold start: loading, then loaded; a second open shows the cached value while loading", arguments: Backend.all)
  func coldThenCached(_ backend: Backend) async throws {
    let uid = Self.uid("ada")
    try await backend.db.document("users/\(uid)").setData(["uid": uid, "name": "Ada", "height": "170", "weight": 60])
    try await backend.db.document("users/\(uid)/privateUserInfo/private").setData(["email": "ada@example.com"])
    let (db, _) = Self.client(backend)
    let repository = try UserProfileRepository(firestore: db, uid: uid)

    let first = await Self.states(repository.profile())
    #expect(first.count == 2)
    #expect(first.first == .loading(cached: nil))
    #expect(first.last?.value?.name == "Ada", "\(String(describing: first.last))")
    #expect(first.last?.isLoading == false)
    #expect(first.last?.value?.weight == "60")  // a number reads as text

    let second = await Self.states(repository.profile())
    #expect(second.map(\.value?.name) == [nil, "Ada", "Ada"])
    #expect(second.map(\.isLoading) == [true, true, false])
    #expect(!second.contains { $0.error != nil })

    let email = await Self.states(repository.privateInfo()).last
    #expect(email == .loaded(PrivateUserInfo(email: "ada@example.com")))
  }

  @Test("a missing profile fails only at the end, with notFound", arguments: Backend.all)
  func missingProfile(_ backend: Backend) async throws {
    let (db, _) = Self.client(backend)
    let repository = try UserProfileRepository(firestore: db, uid: Self.uid("nobody"))
    let states = await Self.states(repository.profile())
    #expect(states.count == 2)
    #expect(states.first == .loading(cached: nil))
    #expect(states.last?.error?.code == .notFound)
    #expect(states.last?.error?.message.contains("users/") == true)
    #expect(await repository.loadProfile().error?.code == .notFound)
  }

  @Test("offline with a cached value: loaded from the cache; offline without one: failed at the end", arguments: Backend.all)
  func offline(_ backend: Backend) async throws {
    let (uid, repository, db, transport) = try await Self.namedUser("Grace", backend)
    #expect(await repository.loadProfile().value?.name == "Grace")

    transport.offline = true
    let states = await Self.states(repository.profile())
    #expect(states.map(\.value?.name) == [nil, "Grace", "Grace"])
    #expect(states.last?.isLoading == false)
    #expect(!states.contains { $0.error != nil })
    // The uid field is absent: the document ID fills it; other fields fall back.
    #expect(states.last?.value?.uid == uid)
    #expect(states.last?.value?.agenda == UserProfile.unavailable)

    let stranger = try UserProfileRepository(firestore: db, uid: Self.uid("stranger"))
    let failed = await Self.states(stranger.profile())
    #expect(failed.count == 2)
    #expect(failed.first == .loading(cached: nil))
    #expect(failed.last?.error?.code == .unavailable)
  }

  @Test("following a profile shows every change; .failed is never seen while loading", arguments: Backend.all)
  func follow(_ backend: Backend) async throws {
    let (uid, repository, _, _) = try await Self.namedUser("Linus", backend)
    let states = SequenceCollector(repository.followProfile())
    defer { states.cancel() }
    _ = try await states.wait("the first value") { $0.value?.name == "Linus" && !$0.isLoading }
    try await backend.db.document("users/\(uid)").updateData(["name": "Linus T."])
    _ = try await states.wait("the change") { $0.value?.name == "Linus T." }
    try await backend.db.document("users/\(uid)").delete()
    _ = try await states.wait("the deletion") { $0.error?.code == .notFound }
    let seen = states.values
    #expect(seen.first == .loading(cached: nil))
    // Before the first loaded value, nothing failed.
    let firstLoaded = try #require(seen.firstIndex { !$0.isLoading })
    #expect(seen[..<firstLoaded].allSatisfy { $0.isLoading })
    #expect(seen.filter { $0.error != nil }.count == 1)
  }

  @Test("models decode with the seed's fields and fall back for missing or mistyped ones")
  func models() throws {
    let decoder = Firestore.Decoder()
    let full = try decoder.decode(
      UserProfile.self,
      from: [
        "uid": "u1", "name": "Ada", "gender": "f", "height": 170.5, "weight": "60", "agenda": "run", "profilePicture": "https://x/p.png",
      ])
    #expect(
      full
        == UserProfile(
          uid: "u1", name: "Ada", gender: "f", height: "170.5", weight: "60", agenda: "run", profilePictureURL: "https://x/p.png"))
    let sparse = try decoder.decode(UserProfile.self, from: ["name": true])
    #expect(sparse.name == UserProfile.unavailable)
    #expect(sparse.profilePictureURL == "Unavailable")
    #expect(try decoder.decode(PrivateUserInfo.self, from: [:]).email == "Unavailable")
    #expect(throws: FirestoreError.self) { try UserProfileRepository(firestore: Backend.mock.db, uid: "a/b") }
    #expect(throws: FirestoreError.self) { try UserProfileRepository(firestore: Backend.mock.db, uid: "") }
  }
}
