import Dispatch
import FirestorePlatform
import Foundation

/// The handle ``LoadBundleTask/addObserver(_:)`` returns, to remove that observer with.
public typealias LoadBundleObserverHandle = Int

/// A bundle being loaded, as the Apple SDK's `LoadBundleTask`: observers hear its progress,
/// on ``FirestoreSettings/dispatchQueue``, up to its end in state
/// ``LoadBundleTaskState/success`` or ``LoadBundleTaskState/error``.
///
/// ```swift
/// let task = db.loadBundle(bundleData)
/// task.addObserver { progress in
///   if progress.state == .success { print("\(progress.documentsLoaded) documents") }
/// }
/// ```
///
/// Every observer hears every progress the task reports, in order, those reported before it
/// was added included (loading may be done before the caller adds its first observer).
public final class LoadBundleTask: NSObject, @unchecked Sendable {
  private struct State {
    var observers: [(handle: Int, call: UncheckedCallback<LoadBundleTaskProgress>)] = []
    var nextHandle = 0
    var reported: [LoadBundleTaskProgress] = []
  }

  private let state = Locked(State())
  private let queue: DispatchQueue

  init(queue: DispatchQueue) {
    self.queue = queue
  }

  /// Calls `observer` with each progress from now on; returns the handle to remove it with.
  @discardableResult
  public func addObserver(_ observer: @escaping (LoadBundleTaskProgress) -> Void) -> LoadBundleObserverHandle {
    let callback = UncheckedCallback(observer)
    let (handle, earlier) = state.withLock { s in
      s.nextHandle += 1
      s.observers.append((s.nextHandle, callback))
      return (s.nextHandle, s.reported)
    }
    // The queue holds the task until its observers have heard: a caller need not keep it.
    if !earlier.isEmpty {
      queue.async {
        for progress in earlier where self.isObserved(handle) { callback.call(progress) }
      }
    }
    return handle
  }

  /// Stops calling the observer `handle` names.
  public func removeObserverWith(handle: LoadBundleObserverHandle) {
    state.withLock { $0.observers.removeAll { $0.handle == handle } }
  }

  /// Stops calling every observer.
  public func removeAllObservers() {
    state.withLock { $0.observers.removeAll() }
  }

  private func isObserved(_ handle: Int) -> Bool {
    state.withLock { $0.observers.contains { $0.handle == handle } }
  }

  /// Tells the observers of `progress`, in order, on the task's queue.
  func report(_ progress: LoadBundleTaskProgress) {
    let observers = state.withLock { s in
      s.reported.append(progress)
      return s.observers
    }
    queue.async {
      for observer in observers where self.isObserved(observer.handle) { observer.call.call(progress) }
    }
  }
}
