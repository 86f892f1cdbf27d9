import FirestoreWire
import Foundation

/// One WebChannel session carrying one Listen stream (see `Docs/Protocol/WebChannel.md`).
///
/// The channel performs the handshake POST (carrying the first requests), keeps a streaming
/// back-channel GET open (reopening it with the last processed array id whenever the server
/// ends it or it stays silent too long), and sends later requests in forward POSTs, one at a
/// time. It never reconnects by itself: any failure ends ``events`` with
/// ``Event/closed(_:)`` and the owner (``ListenManager``) starts a new channel.
///
/// What to send and when is decided by a ``ListenSession``; this actor performs its
/// actions (requests, timers, token fetches) and reports their outcomes back to it.
actor ListenChannel {
  /// What the channel reports, in order.
  enum Event: Sendable {
    /// A message from the server.
    case response(ListenResponse)
    /// The session is over (a failure, or the server closed it); no more events follow.
    case closed(FirestoreError)
    /// The auth token differs from the one the session was opened with; the session was
    /// terminated and no more events follow. Not a failure: the owner reopens at once.
    case tokenChanged
  }

  /// How to reach the server.
  struct Configuration: Sendable {
    /// The base URL, `http(s)://host[:port]`.
    var baseURL: String
    /// `projects/{p}/databases/{d}`.
    var database: String
    var transport: any Transport
    /// The client and routing headers and the token the handshake carries.
    var credentials: RequestCredentials
    /// The longest a handshake or forward POST (request and reply body) may take before the
    /// session is terminated.
    var requestTimeout: Duration = Configuration.defaultRequestTimeout
    /// The default ``requestTimeout``: the server answers these at once, so a reply this
    /// late means the request is stuck, and a new session is the way out.
    static let defaultRequestTimeout: Duration = .seconds(10)
    /// Waits out a ``requestTimeout``; tests replace it with a wait they end themselves.
    var requestTimer: @Sendable (Duration) async throws -> Void = Configuration.defaultRequestTimer
    /// The default ``requestTimer``: real time.
    static let defaultRequestTimer: @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    /// A back channel silent this long is reopened.
    var backChannelSilence: Duration = Configuration.defaultBackChannelSilence
    /// The default ``backChannelSilence``: 1.5 × the server's 30 s keep-alive noop.
    static let defaultBackChannelSilence: Duration = .seconds(45)
  }

  /// The channel's events; ends after ``Event/closed(_:)`` or ``terminate()``.
  nonisolated let events: AsyncStream<Event>
  private let sink: AsyncStream<Event>.Continuation
  private let configuration: Configuration
  private var generator = SystemRandomNumberGenerator()
  /// What to do next; this actor only performs its actions and reports their outcomes.
  private var session: ListenSession
  /// Where the session's clock starts: the session sees time as the duration since.
  private let clockOrigin = ContinuousClock.now
  private nonisolated let outbox: AsyncStream<[ListenRequest]>.Continuation
  private let outboxStream: AsyncStream<[ListenRequest]>
  /// Token fetches, the handshake, the forward POST and the outbox reader, by a key each
  /// removes itself with when done.
  private var tasks: [Int: Task<Void, Never>] = [:]
  private var nextTaskKey = 0
  private var backChannel: Task<Void, Never>?
  private var watchdog: Task<Void, Never>?
  /// Fires ``ListenSession/Event/requestTimedOut(serial:)`` when the POST in flight
  /// outlives the request timeout.
  private var requestTimer: Task<Void, Never>?

  /// How many times the back channel was reopened after the server ended it (for tests).
  var backChannelRenewals: Int { session.backChannelRenewals }

  /// Creates a channel; nothing is sent before ``start(with:forceRefreshToken:)``.
  init(configuration: Configuration) {
    self.configuration = configuration
    session = ListenSession(
      requestID: Int.random(in: 0..<100_000), requestTimeout: configuration.requestTimeout,
      backChannelSilence: configuration.backChannelSilence)
    (events, sink) = AsyncStream<Event>.makeStream()
    (outboxStream, outbox) = AsyncStream<[ListenRequest]>.makeStream()
  }

  /// Opens the session with `requests` in the handshake body.
  /// - Parameter forceRefreshToken: the previous token was rejected; ask the provider for a new one.
  func start(with requests: [ListenRequest], forceRefreshToken: Bool = false) {
    // The session holds what is sent before the handshake is answered.
    run {
      for await batch in $0.outboxStream { $0.handle(.send(batch)) }
    }
    handle(.start(requests, forceRefreshToken: forceRefreshToken))
  }

  /// Queues requests for the forward channel; they are sent in order, one POST at a time,
  /// after the handshake. Calls are ordered as made (this does not hop to the actor).
  nonisolated func send(_ requests: [ListenRequest]) {
    outbox.yield(requests)
  }

  /// Ends the session: stops the back channel and tells the server (best effort).
  func terminate() {
    handle(.terminate)
  }

  /// The signed-in user changed: the session asks for the token again and ends with
  /// ``Event/tokenChanged`` if it is not the one its handshake carried.
  func checkToken() {
    handle(.checkToken)
  }

  // MARK: - Driving the session

  /// Feeds `event` to the session and performs what it returns. Actions only start tasks,
  /// which report back later, so no event arrives while actions are performed.
  private func handle(_ event: ListenSession.Event) {
    for action in session.handle(event) { perform(action) }
  }

  /// Starts what `action` asks for; whatever runs reports back through ``handle(_:)``.
  private func perform(_ action: ListenSession.Action) {
    switch action {
    case .fetchToken(let forceRefresh, let use):
      let credentials = configuration.credentials
      run {
        do {
          let token = try await credentials.token(forceRefresh: forceRefresh)
          $0.handle(.tokenFetched(token, for: use))
        } catch {
          $0.handle(.tokenFailed(error, for: use))
        }
      }
    case .sendHandshake(let requests, let token, let requestID):
      sendHandshake(requests, token: token, requestID: requestID)
    case .openBackChannel(let generation, let sessionID, let lastArrayID, let httpSessionID):
      openBackChannel(generation: generation, sessionID: sessionID, lastArrayID: lastArrayID, httpSessionID: httpSessionID)
    case .sendForward(let requests, let offset, let sessionID, let requestID, let lastArrayID, let httpSessionID):
      sendForward(
        requests, offset: offset, sessionID: sessionID, requestID: requestID, lastArrayID: lastArrayID, httpSessionID: httpSessionID)
    case .scheduleRequestTimeout(let serial, let limit):
      // The timer does not wait for the request to honour cancellation (as `Deadline`
      // would), so a request the server never answers (the emulator wedges on an
      // unparseable one) cannot hold the session; the owner starts a new one.
      let wait = configuration.requestTimer
      requestTimer?.cancel()
      requestTimer = Task {
        guard (try? await wait(limit)) != nil else { return }
        self.handle(.requestTimedOut(serial: serial))
      }
    case .cancelRequestTimeout:
      requestTimer?.cancel()
      requestTimer = nil
    case .scheduleSilenceCheck(let generation, let delay):
      watchdog?.cancel()
      watchdog = Task {
        guard (try? await Task.sleep(for: delay)) != nil else { return }
        self.handle(.silenceCheck(generation: generation, now: self.now()))
      }
    case .emit(let event):
      sink.yield(event)
    case .terminateSession(let sessionID, let requestID, let httpSessionID):
      sendTerminate(sessionID: sessionID, requestID: requestID, httpSessionID: httpSessionID)
    case .cancelAll:
      stopAll()
    case .finish(let event):
      if let event { sink.yield(event) }
      sink.finish()
    }
  }

  /// Runs `operation` on this actor in a task that ``stopAll()`` cancels.
  private func run(_ operation: @escaping @Sendable (isolated ListenChannel) async -> Void) {
    let key = nextTaskKey
    nextTaskKey += 1
    tasks[key] = Task {
      await operation(self)
      self.tasks[key] = nil
    }
  }

  /// The time on the session's clock.
  private func now() -> Duration { clockOrigin.duration(to: .now) }

  // MARK: - Handshake

  /// POSTs the handshake with the client's headers and `token` in the body (the server
  /// keeps them for the session) and reports the reply's arrays.
  private func sendHandshake(_ requests: [ListenRequest], token: String?, requestID: Int) {
    var headers = configuration.credentials.headers.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }
    if let token { headers.append(("Authorization", "Bearer " + token)) }
    let body = WebChannelForwardBody.encode(messages: requests.map(\.json), offset: 0, headers: headers)
    let params = WebChannelURL.handshake(database: configuration.database, requestID: requestID, zx: zx())
    run {
      do {
        let response = try await $0.send(ListenChannelRPC(.handshake, baseURL: $0.configuration.baseURL, params: params, body: body))
        let httpSessionID = response.headers["x-http-session-id"]
        let data = try await response.collectBody(limit: 1 << 20)
        var parser = WebChannelFrameParser()
        var entries: [WebChannelMessage.Entry] = []
        for frame in try parser.append(data) { entries += try WebChannelMessage.parse(frame: frame) }
        $0.handle(.handshakeReplied(entries, httpSessionID: httpSessionID))
      } catch {
        $0.handle(.handshakeFailed(error))
      }
    }
  }

  // MARK: - Forward channel

  /// POSTs `requests` on the forward channel and reports the reply (its body is read, not
  /// used: the server's answers come on the back channel).
  private func sendForward(
    _ requests: [ListenRequest], offset: Int, sessionID: String, requestID: Int, lastArrayID: Int, httpSessionID: String?
  ) {
    let body = WebChannelForwardBody.encode(messages: requests.map(\.json), offset: offset)
    let params = WebChannelURL.forward(
      database: configuration.database, sessionID: sessionID, requestID: requestID, lastArrayID: lastArrayID, zx: zx(),
      httpSessionID: httpSessionID)
    run {
      do {
        let call = try ListenChannelRPC(.forward, baseURL: $0.configuration.baseURL, params: params, body: body)
        _ = try await $0.send(call).collectBody(limit: 1 << 20)
        $0.handle(.forwardReplied)
      } catch {
        $0.handle(.forwardFailed(error))
      }
    }
  }

  // MARK: - Back channel

  /// Opens back channel `generation` in place of the open one and reports every chunk it
  /// delivers, then how it ended.
  private func openBackChannel(generation: Int, sessionID: String, lastArrayID: Int, httpSessionID: String?) {
    backChannel?.cancel()
    let params = WebChannelURL.backChannel(
      database: configuration.database, sessionID: sessionID, lastArrayID: lastArrayID, zx: zx(), httpSessionID: httpSessionID)
    backChannel = Task {
      do {
        let response = try await self.send(ListenChannelRPC(.backChannel, baseURL: self.configuration.baseURL, params: params))
        var parser = WebChannelFrameParser()
        for try await chunk in response.body {
          // The arrays of the frames before an unreadable one are processed first.
          var entries: [WebChannelMessage.Entry] = []
          var failure: (any Error)?
          do {
            for frame in try parser.append(chunk) { entries += try WebChannelMessage.parse(frame: frame) }
          } catch {
            failure = error
          }
          self.handle(.received(entries, generation: generation, now: self.now()))
          if let failure { throw failure }
        }
        try parser.finish()
        self.handle(.backChannelEnded(generation: generation))
      } catch {
        if !Task.isCancelled { self.handle(.backChannelFailed(error, generation: generation)) }
      }
    }
  }

  // MARK: - Requests

  /// Sends `call` and returns its 200 reply; sends it again when it failed before the server
  /// acted on it (see ``RetryClass/channel(resendable:)``), unless the session closed
  /// meanwhile. Any other reply fails with the call's error for it.
  private func send(_ call: ListenChannelRPC) async throws -> HTTPResponse {
    let transport = configuration.transport
    let loop = RetryLoop(retryClass: call.retryClass, policy: ListenChannelRPC.resendPolicy)
    return try await loop.run(cancelled: FirestoreError(.cancelled, "the Listen channel was closed")) { _ in
      if self.session.isClosed { throw CancellationError() }
      let response = try await transport.send(call.request)
      guard response.status != 200 else { return response }
      let body = (try? await response.collectBody(limit: 1 << 16)) ?? Data()
      throw call.error(status: response.status, contentType: response.headers["content-type"], body: body)
    }
  }

  /// Tells the server the session is over, in a task of its own: the session is already
  /// over here, and nothing waits for the answer.
  private func sendTerminate(sessionID: String, requestID: Int, httpSessionID: String?) {
    let params = WebChannelURL.terminate(
      database: configuration.database, sessionID: sessionID, requestID: requestID, zx: zx(), httpSessionID: httpSessionID)
    guard let request = try? ListenChannelRPC(.terminate, baseURL: configuration.baseURL, params: params).request else { return }
    let transport = configuration.transport
    Task {
      _ = try? await Deadline.run(.seconds(10), what: "WebChannel terminate") {
        try await transport.send(request).collectBody(limit: 1 << 16)
      }
    }
  }

  /// Cancels every task under way and stops reading the outbox.
  private func stopAll() {
    backChannel?.cancel()
    backChannel = nil
    watchdog?.cancel()
    watchdog = nil
    requestTimer?.cancel()
    requestTimer = nil
    for task in tasks.values { task.cancel() }
    tasks = [:]
    outbox.finish()
  }

  private func zx() -> String { WebChannelURL.randomZX(using: &generator) }
}
