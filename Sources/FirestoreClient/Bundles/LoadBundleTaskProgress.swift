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

  /// The progress of a load that failed, as the Apple SDK reports it: nothing loaded.
  static let failed = LoadBundleTaskProgress(documentsLoaded: 0, totalDocuments: 0, bytesLoaded: 0, totalBytes: 0, state: .error)
}
