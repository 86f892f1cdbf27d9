import FirestoreTestSupport

#if canImport(Observation)
  import FirestoreClient
  import FirestoreRepositories
  import Foundation
  import Testing

  /// The `@Observable` face of the repositories.
  @Suite("Repositories: observable state")
  @MainActor
  struct ObservableStateTests {
    @Test("an observable profile follows the repository's live states", arguments: Backend.all)
    func observableProfile(_ backend: Backend) async throws {
      let uid = "obs-\(UUID().uuidString.prefix(8))"
      try await backend.db.document("users/\(uid)").setData(["name": "Hedy"])
      let repository = try UserProfileRepository(firestore: backend.firestore(), uid: uid)
      let model = repository.observableProfile()
      #expect(model.value == .loading(cached: nil))
      try await eventually("the loaded profile") { model.value.value?.name == "Hedy" && !model.value.isLoading }
      try await backend.db.document("users/\(uid)").updateData(["name": "Hedy L."])
      try await eventually("the change") { model.value.value?.name == "Hedy L." }
      #expect(model.updates >= 3)
    }

    @Test("an observable feed state follows the feed", arguments: Backend.all)
    func observableFeed(_ backend: Backend) async throws {
      let path = backend.collection("articles").path
      try await RepositoryTestSupport.seedArticles(backend.db, path, count: 3)
      let feed = try ArticleFeed(firestore: backend.db, filter: .category("swift"), collection: path)
      let model = feed.observableState()
      try await feed.load()
      try await eventually("the ID list") { model.value.orderedIDs == ["a03", "a02", "a01"] }
      _ = try await feed.loadNextBatch()
      try await eventually("the cached batch") { model.value.cachedCount == 3 && model.value.listedCount == 3 }
    }
  }
#endif
