import Testing

/// Polls `condition` every `interval` until it holds. After `timeout` it records an issue that
/// names `what` and throws, so a test waiting for something that never comes fails there
/// instead of checking what follows against a state it never reached.
///
/// The timeout only catches a hang: on a loaded two-core machine running every suite at
/// once, a step that takes milliseconds alone can take tens of seconds.
public func eventually(
  _ what: String, timeout: Duration = .seconds(30), interval: Duration = .milliseconds(20),
  isolation: isolated (any Actor)? = #isolation, sourceLocation: SourceLocation = #_sourceLocation,
  _ condition: () async throws -> Bool
) async throws {
  let deadline = ContinuousClock.now + timeout
  while ContinuousClock.now < deadline {
    if try await condition() { return }
    try await Task.sleep(for: interval)
  }
  Issue.record("timed out waiting for \(what)", sourceLocation: sourceLocation)
  throw WaitTimedOut(what: what)
}

/// What ``eventually(_:timeout:interval:isolation:sourceLocation:_:)`` throws when its condition never held.
public struct WaitTimedOut: Error, CustomStringConvertible {
  /// What was waited for.
  public var what: String
  /// `timed out waiting for <what>`.
  public var description: String { "timed out waiting for \(what)" }
}
