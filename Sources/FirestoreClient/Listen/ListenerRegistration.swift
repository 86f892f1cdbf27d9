import FirestorePlatform
import FirestoreWire

/// A handle on a callback listener from `addSnapshotListener`; ``remove()`` stops it.
///
/// ```swift
/// let registration = db.collection("cities").addSnapshotListener { snapshot, error in
///   guard let snapshot else { print("listen failed:", error!); return }
///   print(snapshot.count, "cities")
/// }
/// // later
/// registration.remove()
/// ```
public final class ListenerRegistration: Sendable {
  private struct State {
    var removed = false
    var onRemove: (@Sendable () -> Void)?
  }

  private let state = Locked(State())

  init() {}

  /// Sets what ``remove()`` does; runs it at once when already removed.
  func setOnRemove(_ action: @escaping @Sendable () -> Void) {
    let runNow = state.withLock { state in
      if !state.removed { state.onRemove = action }
      return state.removed
    }
    if runNow { action() }
  }

  /// Whether ``remove()`` was called.
  var isRemoved: Bool { state.withLock { $0.removed } }

  /// Stops the listener: its callback is not called again and the target is removed from
  /// the server stream. Calling it more than once does nothing.
  public func remove() {
    let action = state.withLock { state in
      defer {
        state.removed = true
        state.onRemove = nil
      }
      return state.removed ? nil : state.onRemove
    }
    action?()
  }
}
