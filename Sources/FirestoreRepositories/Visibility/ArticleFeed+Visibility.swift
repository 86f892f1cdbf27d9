extension ArticleFeed {
  /// Wires feed visibility to prefetching: when the article `event` names is presented,
  /// the batch after the one holding it starts loading, so scrolling on finds it cached.
  /// Dismissals and IDs not in the feed do nothing.
  ///
  /// ```swift
  /// if let event = tracker.update(id, frame: frame, viewport: viewport) { await feed.handle(event) }
  /// ```
  public func handle(_ event: VisibilityEvent<String>) {
    guard case .presented(let id) = event, let index = index(of: id) else { return }
    prefetchBatch(after: index)
  }
}
