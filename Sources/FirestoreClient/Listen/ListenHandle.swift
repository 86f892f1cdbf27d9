import FirestorePlatform
import FirestoreWire

/// Joins a listen that is being started with its cancellation, which may come first: the
/// target ID is known only once the ``ListenManager`` has registered it.
final class ListenHandle: Sendable {
  private struct State {
    var targetID: Int32?
    var cancelled = false
  }

  private let state = Locked(State())

  /// Records the target ID; returns `true` when the listen was already cancelled, in which
  /// case the caller must unlisten it.
  func register(_ targetID: Int32) -> Bool {
    state.withLock { state in
      state.targetID = targetID
      return state.cancelled
    }
  }

  /// Marks the listen cancelled; returns the target ID to unlisten the first time, once known.
  func cancel() -> Int32? {
    state.withLock { state in
      guard !state.cancelled else { return nil }
      state.cancelled = true
      return state.targetID
    }
  }
}
