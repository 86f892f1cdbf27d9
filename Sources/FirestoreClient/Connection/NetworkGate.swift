import FirestorePlatform
import FirestoreWire

/// The transport every request of one ``Firestore`` instance goes through, in front of the
/// configured one: it refuses requests while the network is disabled or the instance is
/// terminated, and it notes whether the server could last be reached.
///
/// A refused request fails without being sent, so even a write may be tried again later.
final class NetworkGate: Transport {
  /// Whether requests may go out.
  enum Mode: Sendable, Equatable {
    /// Requests go out: the usual state.
    case enabled
    /// ``Firestore/disableNetwork()``: requests fail with `unavailable`, unsent.
    case disabled
    /// ``Firestore/terminate()``: requests fail with `failedPrecondition`.
    case terminated
  }

  private struct State {
    var mode = Mode.enabled
    /// When a request last failed because no connection could be made, if that happened
    /// after the last request that reached the server.
    var lastUnreachable: ContinuousClock.Instant?
  }

  /// How long an unreachable server counts as unreachable without a new attempt: the
  /// window in which a transaction fails at once rather than trying.
  static let offlineVerdictLifetime: Duration = .seconds(10)

  private let base: any Transport
  private let state = Locked(State())
  /// Called when a request gets through after one could not be sent.
  private let reachable = Locked<(@Sendable () -> Void)?>(nil)

  /// Wraps `base`.
  init(base: any Transport) {
    self.base = base
  }

  /// Sets what is called when the server is reached again after it could not be.
  func onReachable(_ handler: @escaping @Sendable () -> Void) {
    reachable.withLock { $0 = handler }
  }

  /// The current mode.
  var mode: Mode { state.withLock { $0.mode } }

  /// Sets the mode.
  func setMode(_ mode: Mode) {
    state.withLock { $0.mode = mode }
  }

  /// Whether the server is known to be out of reach: the network is disabled, or a request
  /// failed for lack of a connection within ``offlineVerdictLifetime`` and none got
  /// through since.
  var isOffline: Bool {
    state.withLock { s in
      if s.mode == .disabled { return true }
      guard let last = s.lastUnreachable else { return false }
      return ContinuousClock.now - last < Self.offlineVerdictLifetime
    }
  }

  /// The error of a request made in `mode`, or `nil` when it may go out.
  static func refusal(_ mode: Mode, what: @autoclosure () -> String) -> FirestoreError? {
    switch mode {
    case .enabled:
      return nil
    case .disabled:
      return FirestoreError(.unavailable, "\(what()) was not sent: the network is disabled (Firestore.disableNetwork())").with {
        $0.requestNotSent = true
      }
    case .terminated:
      return FirestoreError(.failedPrecondition, "the Firestore instance was terminated; \(what()) was not sent").with {
        $0.instanceTerminated = true
      }
    }
  }

  /// As the transport behind: the gate never holds a request, so when that transport keeps
  /// deadlines no timer of the client's need race each call.
  var enforcesDeadlines: Bool { base.enforcesDeadlines }

  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    if let refusal = Self.refusal(mode, what: "\(request.method) \(request.url.path)") { throw refusal }
    do {
      let response = try await base.send(request)
      let wasUnreachable = state.withLock { s in
        defer { s.lastUnreachable = nil }
        return s.lastUnreachable != nil
      }
      if wasUnreachable { reachable.withLock { $0 }?() }
      return response
    } catch let error as FirestoreError where error.requestNotSent {
      state.withLock { $0.lastUnreachable = .now }
      throw error
    }
  }
}
