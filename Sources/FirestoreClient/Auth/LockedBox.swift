import Synchronization

/// A value behind a lock that closures can share (a `Mutex` itself cannot be captured).
final class LockedBox<Value: Sendable>: Sendable {
  private let mutex: Mutex<Value>

  init(_ value: Value) { mutex = Mutex(value) }

  /// The current value.
  var value: Value { mutex.withLock { $0 } }

  /// Runs `body` with the value locked.
  func withLock<R: Sendable>(_ body: (inout Value) -> R) -> R { mutex.withLock { body(&$0) } }
}
