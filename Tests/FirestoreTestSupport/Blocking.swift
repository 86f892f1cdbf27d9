import Foundation

/// Work that blocks its thread (a child process, key generation, a socket read, a wait for
/// a signal), run on a thread of its own: blocking one of the few threads that run all the
/// tests' tasks stalls them all.
public enum Blocking {
  /// Runs `work` on a new thread and returns what it returns.
  public static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
      Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
    }
  }

  /// Runs `work`, which cannot fail, on a new thread and returns what it returns.
  public static func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
      Thread.detachNewThread { continuation.resume(returning: work()) }
    }
  }
}
