import FirestorePlatform
import FirestoreWire

/// When the listener of listen-latency first saw each document, and the one waiter for the next of
/// them: the write loop sleeps until the listener resumes it (no polling, which would take
/// CPU from the emulator on a 2-core machine).
final class ListenWaits: Sendable {
  /// Document ID → when its `.added` change arrived.
  let seen = Locked<[String: ContinuousClock.Instant]>([:])
  /// The document the loop waits for, and how to wake it (with `nil` on a timeout).
  let waiter = Locked<(id: String, continuation: CheckedContinuation<ContinuousClock.Instant?, Never>)?>(nil)
}
