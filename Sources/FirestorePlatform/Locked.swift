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
///
/// Public, in a module that is no product, where `package` would do: every module locks
/// on its hot paths, and the optimizer does not inline the `@inlinable` methods of a
/// `package` class into another module (Swift 6.3); a `package` `withLock` would run
/// unspecialized at every call, the body's closure and its types passed at run time.
public final class Locked<Value>: @unchecked Sendable {
  @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
  @usableFromInline var protected: Value

  /// Creates a lock guarding `initialValue`.
  public init(_ initialValue: consuming sending Value) {
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
  public func withLock<Result, E: Error>(_ body: (inout sending Value) throws(E) -> sending Result) throws(E) -> sending Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&protected)
  }
}

extension Locked where Value: Sendable {
  /// A copy of the current value, read under the lock.
  @inlinable
  public var value: Value { withLock { $0 } }
}

extension Locked: CustomReflectable {
  /// No children: a `dump` or debugger view of whatever holds a lock never reads the value
  /// without it, and never shows what it guards (cached tokens among them).
  public var customMirror: Mirror { Mirror(self, children: [:]) }
}
