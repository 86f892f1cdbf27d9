/// Where loading a bundle stands (the Apple SDK's `LoadBundleTaskState`).
public enum LoadBundleTaskState: Sendable {
  /// Loading has not finished.
  case inProgress
  /// Every element was loaded (or the bundle had been loaded before).
  case success
  /// Loading failed; nothing of the bundle was applied.
  case error
}
