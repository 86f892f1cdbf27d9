import Testing

/// How long a test waits for something before it calls it a hang: the default limit of
/// ``eventually(_:timeout:interval:isolation:sourceLocation:_:)``, of the listener tests'
/// waits and of the backends' per-call deadline. It is no measure of speed: on a loaded
/// two-core machine running every suite at once, a step that takes milliseconds alone has
/// taken a minute, and a limit that a slow machine can reach fails tests that are right.
public let hangLimit: Duration = .seconds(120)

/// Polls `condition` every `interval` until it holds. After `timeout` it records an issue that
/// names `what` and throws, so a test waiting for something that never comes fails there
/// instead of checking what follows against a state it never reached.
///
/// The timeout only catches a hang (``hangLimit``).
public func eventually(
  _ what: String, timeout: Duration = hangLimit, interval: Duration = .milliseconds(20),
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
