import FirestoreClient
import FirestorePlatform
import Foundation
import Testing

/// Collects the elements of an `AsyncSequence` (a listener's snapshots, a repository's
/// states) in the background, so a test can act and then look at what arrived, with a time
/// limit instead of hanging on a bug.
///
/// Two ways to read: ``next(timeout:sourceLocation:)`` takes the elements one by one, in
/// order, each once; ``wait(_:timeout:sourceLocation:_:)`` waits for the latest element to
/// show a state, whatever came before it.
public final class SequenceCollector<Element: Sendable>: Sendable {
  private struct State {
    var values: [Element] = []
    /// How many of `values` ``next(timeout:sourceLocation:)`` has taken.
    var taken = 0
    var error: (any Error)?
    var finished = false
  }

  private let state = Locked(State())
  private let task = Locked<Task<Void, Never>?>(nil)

  /// Starts collecting `sequence`.
  public init<S: AsyncSequence & Sendable>(_ sequence: S) where S.Element == Element {
    let state = self.state
    let task = Task {
      do {
        for try await element in sequence { state.withLock { $0.values.append(element) } }
      } catch {
        state.withLock { $0.error = error }
      }
      state.withLock { $0.finished = true }
    }
    self.task.withLock { $0 = task }
  }

  /// Every element so far.
  public var values: [Element] { state.withLock { $0.values } }
  /// The latest element.
  public var last: Element? { values.last }
  /// The error that ended the sequence, if one did.
  public var error: (any Error)? { state.withLock { $0.error } }
  /// Whether the sequence ended.
  public var finished: Bool { state.withLock { $0.finished } }
  /// How many elements arrived and were not taken by ``next(timeout:sourceLocation:)`` yet.
  public var pending: Int { state.withLock { $0.values.count - $0.taken } }

  /// The next element not taken yet; fails the test (and throws) after `timeout`, or when
  /// the sequence ends first.
  public func next(timeout: Duration = hangLimit, sourceLocation: SourceLocation = #_sourceLocation) async throws -> Element {
    var element: Element?
    // Polled often: a listener test waits for one element after another.
    try await eventually("the next element", timeout: timeout, interval: .milliseconds(2), sourceLocation: sourceLocation) {
      let (next, error, finished): (Element?, (any Error)?, Bool) = state.withLock { state in
        guard state.taken < state.values.count else { return (nil, state.error, state.finished) }
        state.taken += 1
        return (state.values[state.taken - 1], nil, false)
      }
      if let error { throw error }
      if finished && next == nil { throw SequenceEnded() }
      element = next
      return next != nil
    }
    return element!
  }

  /// The next element that meets `condition`, the ones before it taken and skipped (as a
  /// snapshot from the cache before the server's); fails as ``next(timeout:sourceLocation:)``.
  public func next(
    timeout: Duration = hangLimit, sourceLocation: SourceLocation = #_sourceLocation, where condition: (Element) -> Bool
  ) async throws -> Element {
    var element = try await next(timeout: timeout, sourceLocation: sourceLocation)
    while !condition(element) { element = try await next(timeout: timeout, sourceLocation: sourceLocation) }
    return element
  }

  /// Waits until the latest element meets `condition` and returns it; fails the test (and
  /// throws) after `timeout`, or at once when the sequence failed.
  public func wait(
    _ what: String, timeout: Duration = hangLimit, sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: (Element) -> Bool
  ) async throws -> Element {
    var found: Element?
    try await eventually(what, timeout: timeout, sourceLocation: sourceLocation) {
      if let error { throw error }
      if let last, condition(last) { found = last }
      return found != nil
    }
    return found!
  }

  /// Waits for the sequence to end; fails the test (and throws) after `timeout`.
  public func waitForEnd(timeout: Duration = hangLimit, sourceLocation: SourceLocation = #_sourceLocation) async throws {
    try await eventually("the end of the sequence", timeout: timeout, sourceLocation: sourceLocation) { finished }
  }

  /// The error that ended the sequence, waiting up to `timeout` for it (`nil` when it did
  /// not end, or ended without one).
  public func failure(timeout: Duration = hangLimit) async throws -> (any Error)? {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
      if let done = state.withLock({ $0.finished ? Optional($0.error) : nil }) { return done }
      try await Task.sleep(for: .milliseconds(20))
    }
    return nil
  }

  /// Cancels the iterating task (which stops a listen).
  public func cancel() { task.withLock { $0?.cancel() } }

  deinit { task.withLock { $0?.cancel() } }
}

/// What ``SequenceCollector/next(timeout:sourceLocation:)`` throws when the sequence ended
/// before another element.
private struct SequenceEnded: Error, CustomStringConvertible {
  var description: String { "the sequence ended without another element" }
}

/// A listener's snapshot: it says whether its data came from the server.
public protocol ListenedSnapshot: Sendable {
  /// Where the snapshot's data came from.
  var metadata: SnapshotMetadata { get }
}

extension QuerySnapshot: ListenedSnapshot {}
extension DocumentSnapshot: ListenedSnapshot {}

extension SequenceCollector where Element: ListenedSnapshot {
  /// The next snapshot of the server's data, the ones from the cache before it skipped.
  ///
  /// A listener shows the cache first, even empty, when its first attempt to reach the
  /// server fails (a proxy answered 502 three times, a handshake timed out on a loaded
  /// machine), as the Apple SDK does; what a test checks of the server's answer comes after.
  /// Only for an answer that differs from what the cache held, or with metadata changes
  /// included: otherwise the server's answer changes nothing a listener is told of.
  public func nextFromServer(timeout: Duration = hangLimit, sourceLocation: SourceLocation = #_sourceLocation) async throws -> Element {
    try await next(timeout: timeout, sourceLocation: sourceLocation) { !$0.metadata.isFromCache }
  }
}
