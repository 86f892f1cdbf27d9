import Testing

/// What one run of a real-time scenario showed: whether it got to the point the test is
/// about, or the machine was too slow for its margin to tell.
public enum MarginRun: Sendable {
  /// The run reached what it tests (a request reached its server before the deadline, all
  /// the attempts fitted): its assertions prove the claim.
  case conclusive
  /// The margin ran out before the run got there (a stalled scheduler, a busy machine): its
  /// outcome was still asserted, but it proves nothing more; the scenario is run again with
  /// a margin twice as long.
  case tooShort
}

/// Runs a scenario whose deadline is real time (the point of the test, as with
/// `FirestoreSettings.timeout`), first with `initial` as its margin and then with twice the
/// last one, until a run is ``MarginRun/conclusive``.
///
/// This replaces "a margin long enough on a loaded machine": a run that was too slow for its
/// margin is not a failure, only no proof. The scenario asserts the outcome of every run (an
/// error's code, what must not have happened) and never an elapsed time. When no run up to
/// `limit` is conclusive, an issue naming `what` is recorded and ``WaitTimedOut`` is thrown.
///
/// ```swift
/// try await withGrowingMargin("the token request reaching the endpoint") { timeout in
///   … // a call with `timeout`, its error asserted
///   return server.snapshot.hits["/token"] == 1 ? .conclusive : .tooShort
/// }
/// ```
public func withGrowingMargin(
  _ what: String, from initial: Duration = .seconds(1), upTo limit: Duration = .seconds(64),
  isolation: isolated (any Actor)? = #isolation, sourceLocation: SourceLocation = #_sourceLocation,
  _ scenario: (_ margin: Duration) async throws -> MarginRun
) async throws {
  var margin = initial
  while margin <= limit {
    if try await scenario(margin) == .conclusive { return }
    margin *= 2
  }
  Issue.record("no run was conclusive for \(what) with margins up to \(limit)", sourceLocation: sourceLocation)
  throw WaitTimedOut(what: what)
}
