extension Dictionary {
  /// An empty dictionary with room for `count` entries, made in code specialized for its
  /// key and value types.
  ///
  /// `init(minimumCapacity:)` and `reserveCapacity(_:)` are not inlinable: they run generic
  /// in the standard library, which looks the storage's type up in the runtime's metadata
  /// tables on every call (about 45 cache lines of the runtime's code and tables, read cold
  /// on a call's path). A sequence that promises `count` elements and yields none makes
  /// the same table through inlinable code, whose storage type is looked up once.
  @inlinable
  package init(reservingCapacity count: Int) {
    self.init(uniqueKeysWithValues: NoElements(underestimatedCount: count))
  }
}

/// A sequence with no elements that promises some: room made for them by the receiver.
@usableFromInline
struct NoElements<Element>: Sequence {
  @usableFromInline
  let underestimatedCount: Int

  @inlinable
  init(underestimatedCount: Int) {
    self.underestimatedCount = underestimatedCount
  }

  @inlinable
  func makeIterator() -> EmptyCollection<Element>.Iterator {
    EmptyCollection<Element>.Iterator()
  }
}
