import FirestoreRepositories
import Testing

/// ``VisibilityTracker``: pure logic, no server.
@Suite("Repositories: feed visibility")
struct VisibilityTrackerTests {
  let viewport = VisibilitySpan(start: 0, end: 1000)

  @Test("the visible fraction is the share of the item inside the viewport")
  func visibleFraction() {
    #expect(VisibilitySpan(start: 100, end: 300).visibleFraction(in: viewport) == 1)
    #expect(VisibilitySpan(start: 900, end: 1100).visibleFraction(in: viewport) == 0.5)
    #expect(VisibilitySpan(start: -150, end: 50).visibleFraction(in: viewport) == 0.25)
    #expect(VisibilitySpan(start: 1000, end: 1200).visibleFraction(in: viewport) == 0)
    #expect(VisibilitySpan(start: -500, end: 1500).visibleFraction(in: viewport) == 0.5)
    #expect(VisibilitySpan(start: 500, end: 500).visibleFraction(in: viewport) == 1)
    #expect(VisibilitySpan(start: 1500, end: 1500).visibleFraction(in: viewport) == 0)
    #expect(VisibilitySpan(start: 300, end: 100).visibleFraction(in: viewport) == 1)  // reversed: empty, inside
  }

  @Test("presented at the threshold, dismissed below it minus the hysteresis, once per transition")
  func transitionsOnce() {
    var tracker = VisibilityTracker<Int>(presentThreshold: 0.8, hysteresis: 0.1)
    #expect(tracker.update(1, visibleFraction: 0.5) == nil)
    #expect(tracker.update(1, visibleFraction: 0.8) == .presented(1))
    #expect(tracker.update(1, visibleFraction: 1.0) == nil)
    #expect(tracker.isPresented(1))
    // Jitter around the threshold does not flicker.
    for fraction in [0.79, 0.81, 0.75, 0.8, 0.71] { #expect(tracker.update(1, visibleFraction: fraction) == nil) }
    #expect(tracker.update(1, visibleFraction: 0.69) == .dismissed(1))
    #expect(tracker.update(1, visibleFraction: 0.1) == nil)
    #expect(tracker.update(1, visibleFraction: 0.79) == nil)
    #expect(tracker.update(1, visibleFraction: 0.9) == .presented(1))
    #expect(tracker.update(1, visibleFraction: .nan) == .dismissed(1))
  }

  @Test("a scroll pass reports each item's transitions in order; a torn-down row is dismissed")
  func scrollPass() {
    var tracker = VisibilityTracker<String>()
    let rows = (0..<10).map { (id: "r\($0)", frame: VisibilitySpan(start: Double($0) * 400, end: Double($0 + 1) * 400)) }
    #expect(tracker.update(frames: rows, viewport: viewport) == [.presented("r0"), .presented("r1")])
    // Scroll down by 300: r0 is 25 % visible, r2 (800...1200) is now wholly inside.
    #expect(tracker.update(frames: rows, viewport: VisibilitySpan(start: 300, end: 1300)) == [.dismissed("r0"), .presented("r2")])
    // Another 400: r1 keeps 25 %, r3 (1200...1600) comes in.
    #expect(tracker.update(frames: rows, viewport: VisibilitySpan(start: 700, end: 1700)) == [.dismissed("r1"), .presented("r3")])
    #expect(tracker.presented == ["r2", "r3"])
    #expect(tracker.remove("r2") == .dismissed("r2"))
    #expect(tracker.remove("r2") == nil)
    #expect(VisibilityEvent.presented("r3").id == "r3")
  }

  @Test("thresholds are clamped to sensible values")
  func clamping() {
    let loose = VisibilityTracker<Int>(presentThreshold: 2, hysteresis: 5)
    #expect(loose.presentThreshold == 1)
    #expect(loose.dismissThreshold == 0)
    let tight = VisibilityTracker<Int>(presentThreshold: 0.5, hysteresis: -1)
    #expect(tight.dismissThreshold == 0.5)
    var zero = VisibilityTracker<Int>(presentThreshold: 0)
    #expect(zero.presentThreshold > 0)
    #expect(zero.update(1, visibleFraction: 0) == nil)
  }
}
