#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value that threads share under a lock: the package's one mutual-exclusion primitive.
///
/// It has the shape of `Synchronization.Mutex` (`withLock` hands the body the value
/// `inout`) but is built on `pthread_mutex_t`, which ThreadSanitizer understands: on Linux,
/// `Mutex` locks with raw futex calls from the uninstrumented standard library, so every
/// access it guards shows up as a data race under `swift test --sanitize=thread`, hiding
/// the real ones.
///
/// ```swift
/// let hits = Locked(0)
/// hits.withLock { $0 += 1 }
/// ```
///
/// The lock is not recursive: calling `withLock` again from inside its body deadlocks.
package final class Locked<Value>: @unchecked Sendable {
  // Usable from inlined code: every module locks on its hot paths, and a generic call across
  // modules would run unspecialized, the body's closure and its types passed at run time.
  @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
  @usableFromInline var protected: Value

  /// Creates a lock guarding `initialValue`.
  package init(_ initialValue: consuming sending Value) {
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
    protected = initialValue
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

  /// Runs `body` with the value while holding the lock, and returns what it returns.
  @inlinable
  package func withLock<Result, E: Error>(_ body: (inout sending Value) throws(E) -> sending Result) throws(E) -> sending Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&protected)
  }
}

extension Locked where Value: Sendable {
  /// A copy of the current value, read under the lock.
  @inlinable
  package var value: Value { withLock { $0 } }
}

extension Locked: CustomReflectable {
  /// No children: a `dump` or debugger view of whatever holds a lock never reads the value
  /// without it, and never shows what it guards (cached tokens among them).
  package var customMirror: Mirror { Mirror(self, children: [:]) }
}
