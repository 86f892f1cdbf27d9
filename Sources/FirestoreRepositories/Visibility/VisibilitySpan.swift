/// A stretch along the scroll axis: an item's frame or the viewport, as a start and an end
/// coordinate (`minY`/`maxY` for a vertical feed, `minX`/`maxX` for a horizontal one).
public struct VisibilitySpan: Sendable, Hashable {
  /// Where it starts.
  public var start: Double
  /// Where it ends; an `end` before `start` is read as an empty span.
  public var end: Double

  /// Creates a span.
  public init(start: Double, end: Double) {
    self.start = start
    self.end = end
  }

  /// Its length, never negative.
  public var length: Double { max(0, end - start) }

  /// The fraction of this span inside `viewport`, from 0 to 1. An empty span is visible
  /// (1) when it lies within the viewport and invisible (0) otherwise, so a zero-height
  /// row never divides by zero.
  public func visibleFraction(in viewport: VisibilitySpan) -> Double {
    let overlap = min(end, viewport.end) - max(start, viewport.start)
    guard length > 0 else { return start >= viewport.start && start <= viewport.end ? 1 : 0 }
    return min(1, max(0, overlap / length))
  }
}
