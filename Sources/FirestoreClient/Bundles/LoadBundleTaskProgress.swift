/// How far loading a bundle got (the Apple SDK's `LoadBundleTaskProgress`).
public struct LoadBundleTaskProgress: Sendable, Equatable {
  /// Documents loaded so far.
  public let documentsLoaded: Int
  /// Documents the bundle holds.
  public let totalDocuments: Int
  /// Bytes loaded so far, not counting the bundle's metadata.
  public let bytesLoaded: Int64
  /// The bundle's bytes after its metadata.
  public let totalBytes: Int64
  /// Where loading stands.
  public let state: LoadBundleTaskState
}
