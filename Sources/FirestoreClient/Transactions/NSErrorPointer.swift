import Foundation

#if !canImport(ObjectiveC)
  /// Where a transaction block of the Apple SDK's shape reports its failure, as
  /// `errorPointer?.pointee = error`: Foundation on Linux has no `NSErrorPointer`, so the
  /// client names one with the Apple SDK's spelling (on Apple platforms Foundation's is used).
  public typealias NSErrorPointer = UnsafeMutablePointer<NSError?>?
#endif
