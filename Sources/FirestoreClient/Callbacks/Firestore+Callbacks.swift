import Dispatch

/// The Apple SDK's completion-handler forms of the instance's calls, and the helpers behind
/// every completion handler: the work runs in a task, and the handler is called on
/// ``FirestoreSettings/dispatchQueue``.
extension Firestore {
  /// Runs `work` and calls `completion` with its value, or its error, on ``callbackQueue``.
  func complete<T: Sendable>(_ completion: @escaping (T?, (any Error)?) -> Void, _ work: @escaping @Sendable () async throws -> T) {
    let callback = UncheckedCallback<(T?, (any Error)?)> { completion($0.0, $0.1) }
    let queue = callbackQueue
    Task {
      do {
        let value = try await work()
        queue.async { callback.call((value, nil)) }
      } catch {
        queue.async { callback.call((nil, error)) }
      }
    }
  }

  /// Runs `work` now, on the caller's thread, and calls `completion` with its value or its
  /// error on ``callbackQueue``: for reads of the local cache, which answer as the cache is
  /// when they are made, in order with the instance's other calls (a ``terminate()`` right
  /// after them included), as the Apple SDK's one queue orders them.
  func completeNow<T: Sendable>(_ completion: @escaping (T?, (any Error)?) -> Void, _ work: () throws -> T) {
    let callback = UncheckedCallback<(T?, (any Error)?)> { completion($0.0, $0.1) }
    let result = Result { try work() }
    callbackQueue.async {
      switch result {
      case .success(let value): callback.call((value, nil))
      case .failure(let error): callback.call((nil, error))
      }
    }
  }

  /// Runs `work` and calls `completion`, if any, with `nil` or its error on ``callbackQueue``.
  func complete(_ completion: (((any Error)?) -> Void)?, _ work: @escaping @Sendable () async throws -> Void) {
    let callback = completion.map { UncheckedCallback($0) }
    let queue = callbackQueue
    Task {
      var failure: (any Error)?
      do { try await work() } catch { failure = error }
      if let callback { queue.async { [failure] in callback.call(failure) } }
    }
  }

  /// Disables the network (see ``disableNetwork()``); `completion` is called once it is.
  public func disableNetwork(completion: (((any Error)?) -> Void)?) {
    complete(completion) { try await self.disableNetwork() }
  }

  /// Enables the network (see ``enableNetwork()``); `completion` is called once it is.
  public func enableNetwork(completion: (((any Error)?) -> Void)?) {
    complete(completion) { try await self.enableNetwork() }
  }

  /// Calls `completion` once every write queued before the call is settled (see
  /// ``waitForPendingWrites()``).
  public func waitForPendingWrites(completion: @escaping ((any Error)?) -> Void) {
    complete(completion) { try await self.waitForPendingWrites() }
  }

  /// Terminates the instance (see ``terminate()``); `completion` is called once it is.
  public func terminate(completion: (((any Error)?) -> Void)?) {
    complete(completion) { try await self.terminate() }
  }

  /// Deletes the persistent cache (see ``clearPersistence()``); `completion` hears the outcome.
  public func clearPersistence(completion: (((any Error)?) -> Void)?) {
    complete(completion) { try await self.clearPersistence() }
  }
}
