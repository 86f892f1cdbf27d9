/// A transition reported by ``VisibilityTracker``: an item became presented (enough of it
/// on screen) or was dismissed (no longer enough).
public enum VisibilityEvent<ID: Hashable & Sendable>: Sendable, Hashable {
  /// The item is now shown: start its video, count an impression, prefetch after it.
  case presented(ID)
  /// The item is no longer shown: pause its video.
  case dismissed(ID)

  /// The item the event is about.
  public var id: ID {
    switch self {
    case .presented(let id), .dismissed(let id): return id
    }
  }
}
