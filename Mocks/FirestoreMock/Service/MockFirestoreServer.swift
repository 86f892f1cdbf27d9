import FirestoreWire

/// An in-memory Firestore that speaks the emulator's REST protocol over HTTP/1.1: for
/// tests that should not need Java or the real emulator.
///
/// ```swift
/// let server = try MockFirestoreServer.start()
/// defer { server.stop() }
/// // Point a client at it: FIRESTORE_EMULATOR_HOST=\(server.hostAndPort)
/// ```
///
/// Data lives until ``stop()`` or a reset (the emulator's own
/// `DELETE /emulator/v1/projects/{p}/databases/{d}/documents`, or ``reset(projectID:database:)``).
/// Real-time listens are served over WebChannel at `/google.firestore.v1.Firestore/Listen/channel`
/// with incremental changes as production sends them (not the emulator's RESET and re-send).
/// Faults are injected through ``faults`` (or `POST /mock/v1/faults`) and every request
/// is recorded in ``requestLog`` (or `GET /mock/v1/requests`).
public final class MockFirestoreServer: Sendable {
  private let http: MockHTTPServer
  private let store: MockStore
  private let sessions: ListenSessionTable

  /// The host the server listens on.
  public var host: String { http.host }
  /// The bound port (an ephemeral one when started with port 0).
  public var port: Int { http.port }
  /// `host:port`, the value for `FIRESTORE_EMULATOR_HOST`.
  public var hostAndPort: String { "\(host):\(port)" }
  /// Faults applied to requests; add rules to make requests slow, fail or break.
  public var faults: FaultInjector { http.faults }
  /// Every request received, for asserting round trips.
  public var requestLog: RequestLog { http.requestLog }

  /// The number of live Listen (WebChannel) sessions.
  public var listenSessionCount: Int { sessions.count }

  /// The number of commits waiting, right now, for a lock another transaction holds: a
  /// test waits for this to count its commit before it acts on the lock (ends the holder,
  /// commits a rival, advances the ``MockClock`` past the lock timeout).
  public var commitsWaitingForLocks: Int { store.commitsWaitingForLocks }

  /// Cuts every open Listen back channel at once, as a dropped connection would (no final
  /// chunk). Sessions survive; clients reopen the back channel or reconnect, and resume.
  /// A back channel request that arrived before the call is cut too, once it is served.
  public func cutListenBackChannels() { sessions.cutBackChannels() }

  /// Ends every open Listen back channel cleanly, as the server does when a back channel
  /// has been open for `backChannelWait`: the response completes, the session survives, and
  /// clients reopen the back channel in the same session. A back channel request that
  /// arrived before the call ends too, once it is served, without streaming: a fault rule
  /// added before the call then meets the reopened one, however busy the machine.
  public func endListenBackChannels() { sessions.endBackChannels() }

  private init(http: MockHTTPServer, store: MockStore, sessions: ListenSessionTable) {
    self.http = http
    self.store = store
    self.sessions = sessions
  }

  /// Starts a server; it accepts connections when this returns.
  ///
  /// - Parameters:
  ///   - host: the address to bind, `127.0.0.1` by default.
  ///   - port: the port; 0 picks a free one (read it from ``port``).
  ///   - lockTimeout: how long a write waits for a transaction's lock before `ABORTED`
  ///     (the emulator waits about 2 s).
  ///   - transactionIdleTimeout: how long an unused transaction keeps its locks before it
  ///     expires, so that an abandoned one cannot block writers forever.
  ///   - backChannelWait: a Listen back channel (WebChannel GET) completes at its first
  ///     flush after this long, as the emulator's does after 45 s; tests use less.
  ///   - clock: what the three durations above are measured on: real time by default, or a
  ///     ``MockClock/manual()`` clock that a test advances past them.
  public static func start(
    host: String = "127.0.0.1", port: Int = 0, lockTimeout: Duration = .seconds(2), transactionIdleTimeout: Duration = .seconds(30),
    backChannelWait: Duration = .seconds(45), clock: MockClock = .continuous
  ) throws -> MockFirestoreServer {
    try start(
      host: host, port: port, lockTimeout: lockTimeout, transactionIdleTimeout: transactionIdleTimeout, backChannelWait: backChannelWait,
      clock: clock, configuration: MockHTTPServerConfiguration())
  }

  /// ``start(host:port:lockTimeout:transactionIdleTimeout:backChannelWait:clock:)`` with the
  /// HTTP server's limits given (for tests).
  static func start(
    host: String = "127.0.0.1", port: Int = 0, lockTimeout: Duration = .seconds(2), transactionIdleTimeout: Duration = .seconds(30),
    backChannelWait: Duration = .seconds(45), clock: MockClock = .continuous, configuration: MockHTTPServerConfiguration
  ) throws -> MockFirestoreServer {
    let store = MockStore(lockTimeout: lockTimeout, transactionIdleTimeout: transactionIdleTimeout, clock: clock)
    let faults = FaultInjector()
    let log = RequestLog()
    let sessions = ListenSessionTable(store: store, backChannelWait: backChannelWait)
    let service = FirestoreService(store: store, faults: faults, requestLog: log, listen: ListenChannelService(sessions: sessions))
    let http = try MockHTTPServer.start(
      host: host, port: port, faults: faults, requestLog: log, configuration: configuration, handler: service.handle)
    return MockFirestoreServer(http: http, store: store, sessions: sessions)
  }

  /// Ends every Listen session (their back channels complete), then stops accepting,
  /// closes every connection and waits for them (at most 10 s); idempotent.
  ///
  /// - Returns: `true` when every thread finished, `false` when one was left running.
  @discardableResult
  public func stop() -> Bool {
    sessions.stop()
    return http.stop()
  }

  /// Deletes every document of a database.
  public func reset(projectID: String, database: String = "(default)") {
    store.reset(database: "projects/\(projectID)/databases/\(database)")
  }
}
