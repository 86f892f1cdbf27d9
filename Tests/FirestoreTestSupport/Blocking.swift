import Foundation

/// Work that blocks its thread (a child process, key generation), run on a thread of its
/// own: blocking one of the few threads that run all the tests' tasks stalls them all.
public enum Blocking {
  /// Runs `work` on a new thread and returns what it returns.
  public static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
      Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
    }
  }
}
