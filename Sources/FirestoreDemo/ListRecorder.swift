import FirestoreClient
import FirestorePlatform
import FirestoreRepositories
import FirestoreWire

/// Keeps the versions of a live favorites list, for the demo to wait on.
final class ListRecorder: Sendable {
  private let state = Locked((lists: [FavoritesList<MealPlan>](), error: FirestoreError?.none))

  var count: Int { state.withLock { $0.lists.count } }

  func record(_ list: FavoritesList<MealPlan>) { state.withLock { $0.lists.append(list) } }

  func fail(_ error: any Error) {
    let failure = error as? FirestoreError ?? FirestoreError(.unknown, "\(error)", underlyingError: error)
    state.withLock { $0.error = failure }
  }

  /// Waits for the first list, from the `from`-th version on, that satisfies `condition`
  /// (so a pending star is seen even when the server confirmed it a moment later); fails
  /// after 20 s or when the listener failed.
  func wait(_ what: String, from: Int = 0, _ condition: (FavoritesList<MealPlan>) -> Bool) async throws -> FavoritesList<MealPlan> {
    let clock = ContinuousClock()
    let deadline = clock.now + .seconds(20)
    while true {
      let (lists, error) = state.withLock { ($0.lists, $0.error) }
      if let match = lists.dropFirst(from).first(where: condition) { return match }
      if let error { throw error }
      guard clock.now < deadline else {
        throw FirestoreError(.deadlineExceeded, "the favorites list did not show \(what) within 20 s")
      }
      try await Task.sleep(for: .milliseconds(10))
    }
  }
}
