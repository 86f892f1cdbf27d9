#if canImport(SwiftUI)
  import SwiftUI

  /// The SwiftUI face of ``VisibilityTracker``: measures the item against the scroll view's
  /// named coordinate space on every layout pass and calls `onPresented`/`onDismissed`
  /// once per transition, with the tracker's threshold and hysteresis.
  ///
  /// Only on platforms with SwiftUI; the logic lives in ``VisibilityTracker``, which is
  /// tested everywhere.
  @available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
  public struct FeedVisibilityModifier: ViewModifier {
    /// The coordinate space name the scroll view declares with `.coordinateSpace(name:)`.
    public let coordinateSpace: String
    /// The viewport height (or width, with `horizontal`) in that space.
    public let viewportLength: CGFloat
    /// Whether the feed scrolls horizontally.
    public let horizontal: Bool
    let onPresented: () -> Void
    let onDismissed: () -> Void
    @State private var tracker: VisibilityTracker<Int>

    /// Creates the modifier; `View.onFeedItemVisibility(in:viewportLength:...)` is the usual spelling.
    public init(
      coordinateSpace: String, viewportLength: CGFloat, horizontal: Bool, presentThreshold: Double,
      onPresented: @escaping () -> Void, onDismissed: @escaping () -> Void
    ) {
      self.coordinateSpace = coordinateSpace
      self.viewportLength = viewportLength
      self.horizontal = horizontal
      self.onPresented = onPresented
      self.onDismissed = onDismissed
      _tracker = State(initialValue: VisibilityTracker(presentThreshold: presentThreshold))
    }

    /// Measures the content's frame in the background and reports transitions.
    public func body(content: Content) -> some View {
      content
        .background(
          GeometryReader { proxy in
            let frame = proxy.frame(in: .named(coordinateSpace))
            Color.clear.onChange(of: horizontal ? frame.minX : frame.minY, initial: true) {
              let span =
                horizontal
                ? VisibilitySpan(start: Double(frame.minX), end: Double(frame.maxX))
                : VisibilitySpan(start: Double(frame.minY), end: Double(frame.maxY))
              report(tracker.update(0, frame: span, viewport: VisibilitySpan(start: 0, end: Double(viewportLength))))
            }
          }
        )
        .onDisappear { report(tracker.remove(0)) }
    }

    private func report(_ event: VisibilityEvent<Int>?) {
      switch event {
      case .presented: onPresented()
      case .dismissed: onDismissed()
      case nil: break
      }
    }
  }

  @available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
  extension View {
    /// Calls `onPresented` when at least `presentThreshold` of this feed item is inside the
    /// scroll view's viewport and `onDismissed` when it falls out again.
    ///
    /// ```swift
    /// ScrollView { LazyVStack { ForEach(items) { item in
    ///   Row(item).onFeedItemVisibility(in: "feed", viewportLength: height) {
    ///     Task { await feed.handle(.presented(item.id)) }
    ///   } onDismissed: { player.pause() }
    /// } } }.coordinateSpace(name: "feed")
    /// ```
    public func onFeedItemVisibility(
      in coordinateSpace: String, viewportLength: CGFloat, horizontal: Bool = false, presentThreshold: Double = 0.8,
      onPresented: @escaping () -> Void, onDismissed: @escaping () -> Void = {}
    ) -> some View {
      modifier(
        FeedVisibilityModifier(
          coordinateSpace: coordinateSpace, viewportLength: viewportLength, horizontal: horizontal,
          presentThreshold: presentThreshold, onPresented: onPresented, onDismissed: onDismissed))
    }
  }
#endif
