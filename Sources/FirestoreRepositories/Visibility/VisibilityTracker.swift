/// A feed item's on-screen lifecycle without SwiftUI: from each item's frame and the
/// viewport it computes the visible fraction and reports `presented`/`dismissed` once per
/// transition.
///
/// An item is presented when its visible fraction reaches ``presentThreshold`` and
/// dismissed when it falls below ``dismissThreshold``. The gap between the two is the
/// hysteresis: an item resting right at the threshold, whose measured fraction jitters by
/// a pixel between layout passes, does not flicker between the two states.
///
/// ```swift
/// var tracker = VisibilityTracker<String>()           // present at 80 %, dismiss below 70 %
/// let viewport = VisibilitySpan(start: 0, end: 800)
/// if let event = tracker.update("a1", frame: VisibilitySpan(start: 100, end: 500), viewport: viewport) {
///   print(event)                                      // presented("a1")
/// }
/// ```
public struct VisibilityTracker<ID: Hashable & Sendable>: Sendable {
  /// The visible fraction at which an item becomes presented.
  public let presentThreshold: Double
  /// The visible fraction below which a presented item is dismissed.
  public let dismissThreshold: Double
  /// The items presented now.
  public private(set) var presented: Set<ID> = []

  /// Creates a tracker.
  ///
  /// - Parameters:
  ///   - presentThreshold: fraction (0...1] at which an item is presented; default 0.8,
  ///     the seed's threshold.
  ///   - hysteresis: how far below `presentThreshold` the fraction must fall to dismiss;
  ///     default 0.1. Clamped so the dismiss threshold stays within 0...presentThreshold.
  public init(presentThreshold: Double = 0.8, hysteresis: Double = 0.1) {
    let present = min(1, max(Double.ulpOfOne, presentThreshold.isNaN ? 0.8 : presentThreshold))
    self.presentThreshold = present
    self.dismissThreshold = min(present, max(0, present - (hysteresis.isNaN ? 0 : max(0, hysteresis))))
  }

  /// Whether the item is presented now.
  public func isPresented(_ id: ID) -> Bool { presented.contains(id) }

  /// Feeds a new measurement of one item; returns the event if its state changed.
  public mutating func update(_ id: ID, frame: VisibilitySpan, viewport: VisibilitySpan) -> VisibilityEvent<ID>? {
    update(id, visibleFraction: frame.visibleFraction(in: viewport))
  }

  /// Feeds an item's visible fraction directly (0...1; NaN counts as 0).
  public mutating func update(_ id: ID, visibleFraction: Double) -> VisibilityEvent<ID>? {
    let fraction = visibleFraction.isNaN ? 0 : visibleFraction
    if presented.contains(id) {
      guard fraction < dismissThreshold else { return nil }
      presented.remove(id)
      return .dismissed(id)
    }
    guard fraction >= presentThreshold else { return nil }
    presented.insert(id)
    return .presented(id)
  }

  /// Feeds a whole layout pass (every measured item and the viewport); returns the
  /// events in the order of `frames`. Items not measured keep their state: a lazy stack
  /// drops rows far off screen, and ``remove(_:)`` is how those are reported.
  public mutating func update(frames: [(id: ID, frame: VisibilitySpan)], viewport: VisibilitySpan) -> [VisibilityEvent<ID>] {
    frames.compactMap { update($0.id, frame: $0.frame, viewport: viewport) }
  }

  /// The item left the layout (its row was torn down): `dismissed` if it was presented.
  public mutating func remove(_ id: ID) -> VisibilityEvent<ID>? {
    presented.remove(id).map { .dismissed($0) }
  }
}
