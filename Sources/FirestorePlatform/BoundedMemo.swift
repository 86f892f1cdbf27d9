/// Values made from keys, kept for the next time the same key comes: a few keys that come
/// again and again are then found, not made anew. It holds at most ``limit`` entries and is
/// emptied when full, so what it keeps stays bounded however many keys a process meets,
/// and the frequent ones are soon kept again.
///
/// ```swift
/// let parsed = BoundedMemo<String, URL>(limit: 128)
/// let url = parsed.value(for: path) { URL(string: prefix + path)! }
/// ```
///
/// Public for the optimizer, as ``Locked`` is: the client and the transport look up a
/// value on every request, and as a `package` class's method ``value(for:make:)`` would
/// run unspecialized, hashing its keys and finding its dictionary's type at run time.
public final class BoundedMemo<Key: Hashable & Sendable, Value: Sendable>: Sendable {
  /// The most entries kept.
  public let limit: Int
  @usableFromInline let entries = Locked<[Key: Value]>([:])

  /// Creates an empty memo of at most `limit` entries.
  public init(limit: Int) {
    self.limit = limit
  }

  /// How many entries are kept (for tests).
  public var count: Int { entries.withLock { $0.count } }

  /// The value kept for `key`, else the one `make` makes (outside the lock), then kept. A
  /// failure is not kept: the next call for the key makes it again.
  @inlinable
  public func value<Failure: Error>(for key: Key, make: () throws(Failure) -> Value) throws(Failure) -> Value {
    if let kept = entries.withLock({ $0[key] }) { return kept }
    let value = try make()
    entries.withLock { kept in
      if kept.count >= limit { kept.removeAll(keepingCapacity: true) }
      kept[key] = value
    }
    return value
  }
}
