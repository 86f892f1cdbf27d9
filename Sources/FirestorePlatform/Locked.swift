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
  /// The value, behind a pointer rather than in a stored `var`: the mutex already makes
  /// each access exclusive, and a class's `var` would have every `withLock` check that
  /// again at run time.
  @usableFromInline let protected: UnsafeMutablePointer<Value>

  /// Creates a lock guarding `initialValue`.
  public init(_ initialValue: consuming sending Value) {
    // The mutex and the value share one allocation, the value after the mutex.
    let valueOffset = Self.valueOffset
    let memory = UnsafeMutableRawPointer.allocate(
      byteCount: valueOffset + MemoryLayout<Value>.size,
      alignment: max(MemoryLayout<pthread_mutex_t>.alignment, MemoryLayout<Value>.alignment))
    mutex = memory.initializeMemory(as: pthread_mutex_t.self, repeating: pthread_mutex_t(), count: 1)
    pthread_mutex_init(mutex, nil)
    protected = (memory + valueOffset).bindMemory(to: Value.self, capacity: 1)
    protected.initialize(to: initialValue)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deinitialize(count: 1)
    protected.deinitialize(count: 1)
    UnsafeMutableRawPointer(mutex).deallocate()
  }

  /// Where the value starts in the allocation: past the mutex, aligned for the value.
  private static var valueOffset: Int {
    let alignment = MemoryLayout<Value>.alignment
    return (MemoryLayout<pthread_mutex_t>.stride + alignment - 1) / alignment * alignment
  }

  /// Runs `body` with the value while holding the lock, and returns what it returns.
  @inlinable
  public func withLock<Result, E: Error>(_ body: (inout sending Value) throws(E) -> sending Result) throws(E) -> sending Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&protected.pointee)
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
