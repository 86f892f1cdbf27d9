import FirestoreWire
import Foundation

/// One WebChannel session carrying one Listen stream (see `Docs/Protocol/WebChannel.md`).
///
/// The channel performs the handshake POST (carrying the first requests), keeps a streaming
/// back-channel GET open (reopening it with the last processed array id whenever the server
/// ends it or it stays silent too long), and sends later requests in forward POSTs, one at a
/// time. It never reconnects by itself: any failure ends ``events`` with
/// ``Event/closed(_:)`` and the owner (``ListenManager``) starts a new channel.
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

  private var sessionID: String?
  private var httpSessionID: String?
  private var requestID: Int
  private var nextMapID = 0
  private var lastArrayID = 0
  private nonisolated let outbox: AsyncStream<[ListenRequest]>.Continuation
  private let outboxStream: AsyncStream<[ListenRequest]>
  private var isClosed = false
  private var tasks: [Task<Void, Never>] = []
  private var backChannel: Task<Void, Never>?
  private var watchdog: Task<Void, Never>?
  private var backChannelGeneration = 0
  /// How many times the back channel was reopened after the server ended it (for tests).
  private(set) var backChannelRenewals = 0
  /// Back channels in a row that ended without a new array.
  private var emptyRenewals = 0
  private var lastActivity = ContinuousClock.now
  /// The token the handshake carried; the server keeps it for the whole session
  /// (`Docs/Protocol/WebChannel.md`, Credentials).
  private var sessionToken: String?
  /// Fails the session when the POST in flight outlives the request timeout.
  private var requestTimer: Task<Void, Never>?
  private var requestSerial = 0

  /// Creates a channel; nothing is sent before ``start(with:)``.
  init(configuration: Configuration) {
    self.configuration = configuration
    requestID = Int.random(in: 0..<100_000)
    (events, sink) = AsyncStream<Event>.makeStream()
    (outboxStream, outbox) = AsyncStream<[ListenRequest]>.makeStream()
  }

  /// Opens the session with `requests` in the handshake body.
  /// - Parameter forceRefreshToken: the previous token was rejected; ask the provider for a new one.
  func start(with requests: [ListenRequest], forceRefreshToken: Bool = false) {
    tasks.append(Task { await self.handshake(requests, forceRefreshToken: forceRefreshToken) })
  }

  /// Queues requests for the forward channel; they are sent in order, one POST at a time,
  /// after the handshake. Calls are ordered as made (this does not hop to the actor).
  nonisolated func send(_ requests: [ListenRequest]) {
    outbox.yield(requests)
  }

  /// Ends the session: stops the back channel and tells the server (best effort).
  func terminate() {
    guard !isClosed else { return }
    isClosed = true
    sendTerminate()
    stopAll()
    sink.finish()
  }

  // MARK: - Handshake

  private func handshake(_ requests: [ListenRequest], forceRefreshToken: Bool) async {
    do {
      var headers = configuration.credentials.headers.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }
      let token = try await configuration.credentials.token(forceRefresh: forceRefreshToken)
      sessionToken = token
      if let token { headers.append(("Authorization", "Bearer " + token)) }
      let body = WebChannelForwardBody.encode(messages: requests.map(\.json), offset: 0, headers: headers)
      nextMapID = requests.count
      let params = WebChannelURL.handshake(database: configuration.database, requestID: requestID, zx: zx())
      let data = try await timed("WebChannel handshake") {
        let response = try await post(params, body: body, what: "handshake")
        httpSessionID = response.headers["x-http-session-id"]
        return try await response.collectBody(limit: 1 << 20)
      }
      var parser = WebChannelFrameParser()
      var sid: String?
      for frame in try parser.append(data) {
        for entry in try WebChannelMessage.parse(frame: frame) {
          if case .created(let id, _, _, _, _) = entry.message { sid = id }
        }
      }
      guard let sid else { throw FirestoreError(.unavailable, "the WebChannel handshake reply has no session id") }
      sessionID = sid
      guard !isClosed else {
        sendTerminate()  // terminated while the handshake was under way
        return
      }
      openBackChannel()
      tasks.append(Task { await self.pump() })
    } catch {
      fail(error)
    }
  }

  // MARK: - Back channel

  private func openBackChannel() {
    backChannel?.cancel()
    watchdog?.cancel()
    guard let sessionID, !isClosed else { return }
    backChannelGeneration += 1
    let generation = backChannelGeneration
    lastActivity = .now
    let params = WebChannelURL.backChannel(
      database: configuration.database, sessionID: sessionID, lastArrayID: lastArrayID, zx: zx(), httpSessionID: httpSessionID)
    let request: HTTPRequest
    do {
      request = try makeRequest(method: "GET", params: params, body: nil)
    } catch {
      fail(error)
      return
    }
    backChannel = Task {
      do {
        let response = try await self.sendAgainAfterGatewayFailures(request)
        guard response.status == 200 else {
          // 401 means the token was rejected: the owner refreshes it before reconnecting.
          let code: FirestoreError.Code = response.status == 401 ? .unauthenticated : .unavailable
          throw FirestoreError(
            code, "the WebChannel back channel answered HTTP \(response.status)", httpStatus: response.status,
            requestMethod: "GET", requestPath: WebChannelURL.path)
        }
        var parser = WebChannelFrameParser()
        for try await chunk in response.body {
          try self.receive(try parser.append(chunk), generation: generation)
        }
        try parser.finish()
        await self.backChannelEnded(generation: generation)
      } catch {
        if generation == self.backChannelGeneration && !Task.isCancelled { self.fail(error) }
      }
    }
    watchdog = Task { await self.watchSilence(generation: generation) }
  }

  private func backChannelEnded(generation: Int) async {
    guard generation == backChannelGeneration, !isClosed else { return }
    backChannelRenewals += 1
    // The emulator answers every new back channel with at least a noop; a server that keeps
    // ending it without any new array would otherwise make this loop spin.
    emptyRenewals += 1
    guard emptyRenewals <= 3 else {
      fail(FirestoreError(.unavailable, "the WebChannel back channel keeps ending without data"))
      return
    }
    await renewBackChannel(generation: generation)
  }

  /// Reopens the back channel, unless the token changed: a renewal is where a long-lived
  /// session with no forward traffic notices a new token.
  private func renewBackChannel(generation: Int) async {
    guard await tokenIsCurrent(), generation == backChannelGeneration else { return }
    openBackChannel()
  }

  /// Whether the provider's token is still the one the session was opened with; when it is
  /// not (or the provider fails), the session is ended and `false` returned.
  private func tokenIsCurrent() async -> Bool {
    guard !isClosed else { return false }
    let token: String?
    do {
      token = try await configuration.credentials.token(forceRefresh: false)
    } catch {
      fail(error)
      return false
    }
    guard !isClosed else { return false }
    guard token == sessionToken else {
      close(with: .tokenChanged)
      return false
    }
    return true
  }

  /// Reopens the back channel when it has been silent for too long.
  private func watchSilence(generation: Int) async {
    let limit = configuration.backChannelSilence
    // Checked every second, or more often under a short limit (tests).
    let interval = min(.seconds(1), limit / 2)
    while !Task.isCancelled {
      try? await Task.sleep(for: interval)
      guard generation == backChannelGeneration, !isClosed else { return }
      if ContinuousClock.now - lastActivity > limit {
        await renewBackChannel(generation: generation)
        return
      }
    }
  }

  private func receive(_ frames: [JSONValue], generation: Int) throws {
    guard !isClosed, generation == backChannelGeneration else { return }
    lastActivity = .now
    for frame in frames {
      for entry in try WebChannelMessage.parse(frame: frame) where entry.id > lastArrayID {
        lastArrayID = entry.id
        emptyRenewals = 0
        switch entry.message {
        case .noop, .created: continue
        case .stop: throw FirestoreError(.unavailable, "the server stopped the WebChannel session")
        case .close: throw FirestoreError(.unavailable, "the server closed the WebChannel session")
        case .data(let json):
          if let error = Self.streamError(json) { throw error }
          let response: ListenResponse
          do {
            response = try ListenResponse(json: json)
          } catch let error as WireFormatError {
            throw FirestoreError(.internal, "server sent a malformed ListenResponse: \(error)", underlyingError: error)
          }
          sink.yield(.response(response))
        }
      }
    }
  }

  /// The stream error in a data message (`{"error": …}`, or production's `[{"error": …}]`).
  static func streamError(_ json: JSONValue) -> FirestoreError? {
    let object = json.arrayValue?.first ?? json
    guard let error = object["error"] else { return nil }
    let status = error["status"]?.stringValue ?? "UNKNOWN"
    let code = FirestoreError.Code(statusName: status) ?? .unknown
    let message = error["message"]?.stringValue ?? "the Listen stream failed"
    return FirestoreError(code == .ok ? .unknown : code, "Listen stream error \(status): \(message)")
  }

  // MARK: - Forward channel

  private func pump() async {
    for await batch in outboxStream {
      // Headers on a forward POST are ignored (see Credentials in the protocol notes), so a
      // new token needs a new session; the owner re-adds every live target there, so this
      // batch is dropped.
      guard await tokenIsCurrent(), let sessionID else { return }
      requestID += 1
      let body = WebChannelForwardBody.encode(messages: batch.map(\.json), offset: nextMapID)
      nextMapID += batch.count
      let params = WebChannelURL.forward(
        database: configuration.database, sessionID: sessionID, requestID: requestID, lastArrayID: lastArrayID, zx: zx(),
        httpSessionID: httpSessionID)
      do {
        _ = try await timed("WebChannel forward POST") {
          try await post(params, body: body, what: "forward POST").collectBody(limit: 1 << 20)
        }
      } catch {
        fail(error)
        return
      }
    }
  }

  // MARK: - Requests

  /// Runs `operation`, ending the session with `deadlineExceeded` if it is not done within the
  /// request timeout. Unlike `Deadline`, this does not wait for the operation to honour
  /// cancellation, so a request the server never answers (the emulator wedges on an
  /// unparseable one) cannot hold the session; the owner starts a new one.
  private func timed<T: Sendable>(_ what: String, _ operation: () async throws -> T) async throws -> T {
    requestSerial += 1
    let serial = requestSerial
    let limit = configuration.requestTimeout
    let wait = configuration.requestTimer
    requestTimer?.cancel()
    requestTimer = Task {
      guard (try? await wait(limit)) != nil else { return }
      self.requestTimedOut(serial, FirestoreError(.deadlineExceeded, "\(what) did not finish within \(limit)"))
    }
    defer {
      if serial == requestSerial {
        requestTimer?.cancel()
        requestTimer = nil
      }
    }
    // A reply after a timeout is returned too: callers check `isClosed` (the handshake still
    // terminates the session the server created).
    return try await operation()
  }

  private func requestTimedOut(_ serial: Int, _ error: FirestoreError) {
    guard serial == requestSerial, requestTimer != nil else { return }
    fail(error)
  }

  private func post(_ params: [(String, String)], body: String, what: String) async throws -> HTTPResponse {
    var request = try makeRequest(method: "POST", params: params, body: Data(body.utf8))
    // The server de-duplicates a forward POST by its map ids (`ofs`); a handshake sent twice
    // would open a second session.
    request.isIdempotent = params.contains { $0.0 == "SID" }
    let response = try await sendAgainAfterGatewayFailures(request)
    guard response.status == 200 else {
      // 400 means the session is unknown or gone: a new session fixes it.
      let code = response.status == 400 ? .unavailable : FirestoreError.Code(httpStatus: response.status)
      let detail = await Self.serverMessage(response).map { ": " + $0 } ?? ""
      throw FirestoreError(
        code, "the WebChannel \(what) answered HTTP \(response.status)" + detail, httpStatus: response.status, requestMethod: "POST",
        requestPath: WebChannelURL.path)
    }
    return response
  }

  /// The message of a Firestore error body (`{"error":{"message":…}}`), which says why a
  /// handshake was refused (a disabled API, a denied project); `nil` for any other body.
  private static func serverMessage(_ response: HTTPResponse) async -> String? {
    guard let data = try? await response.collectBody(limit: 1 << 16), let json = try? JSONParser.parse(data),
      let body = try? ErrorBody(json: json)
    else { return nil }
    let message = body.message.trimmingCharacters(in: .whitespacesAndNewlines)
    return message.isEmpty ? nil : message
  }

  /// Sends `request`, and sends it again (twice at most, after a short wait) when it failed
  /// before the server acted on it: a gateway answered 502, 503 or 504, or the connection was
  /// lost before the request went out (or, for a request the server takes twice without harm,
  /// before any reply: the back-channel GET resumes at the last array id, a forward POST is
  /// de-duplicated by its map ids). A proxy in front of the server answers 502 when it handed
  /// the request a connection the server was closing (the emulator closes one after every
  /// channel reply). A handshake is sent again after a gateway's answer too: if the first did
  /// reach the server, it opened a session nobody uses, which the server drops when it
  /// expires; nothing is written. The WebChannel client retries its channel requests the
  /// same way, and the session goes on instead of ending.
  private func sendAgainAfterGatewayFailures(_ request: HTTPRequest) async throws -> HTTPResponse {
    for wait in Self.gatewayRetryWaits {
      do {
        let response = try await configuration.transport.send(request)
        guard [502, 503, 504].contains(response.status) else { return response }
      } catch let error as FirestoreError where error.requestNotSent || (request.isIdempotent && error.code == .unavailable) {
        // Lost before any reply: try again below.
      }
      try await Task.sleep(for: wait)
      if isClosed { throw CancellationError() }
    }
    return try await configuration.transport.send(request)
  }

  /// The waits before a channel request is sent again (see ``sendAgainAfterGatewayFailures(_:)``).
  static let gatewayRetryWaits: [Duration] = [.milliseconds(20), .milliseconds(200)]

  private func makeRequest(method: String, params: [(String, String)], body: Data?) throws -> HTTPRequest {
    // The channel lives at the host root, not under /v1.
    guard let url = URL(string: configuration.baseURL + WebChannelURL.path + "?" + WebChannelURL.query(params)) else {
      throw FirestoreError(.invalidArgument, "cannot form a Listen channel URL from \"\(configuration.baseURL)\"")
    }
    // Every channel request has a connection of its own. The emulator closes the
    // connection after each channel reply without announcing it, so a pooled one would
    // fail the next request to take it, and a commit cannot be sent again.
    var headers = ["Connection": "close"]
    if body != nil { headers["Content-Type"] = "application/x-www-form-urlencoded" }
    return HTTPRequest(method: method, url: url, headers: headers, body: body)
  }

  private func sendTerminate() {
    guard let sessionID else { return }
    requestID += 1
    let params = WebChannelURL.terminate(
      database: configuration.database, sessionID: sessionID, requestID: requestID, zx: zx(), httpSessionID: httpSessionID)
    guard let request = try? makeRequest(method: "GET", params: params, body: nil) else { return }
    let transport = configuration.transport
    Task {
      _ = try? await Deadline.run(.seconds(10), what: "WebChannel terminate") {
        try await transport.send(request).collectBody(limit: 1 << 16)
      }
    }
  }

  private func fail(_ error: any Error) {
    let failure =
      error as? FirestoreError
      ?? FirestoreError(.unavailable, "the Listen channel failed: \(error)", underlyingError: error as? WireFormatError)
    close(with: .closed(failure))
  }

  /// Ends the session and reports `event` as the last one.
  private func close(with event: Event) {
    guard !isClosed else { return }
    isClosed = true
    sendTerminate()
    stopAll()
    sink.yield(event)
    sink.finish()
  }

  private func stopAll() {
    backChannel?.cancel()
    backChannel = nil
    watchdog?.cancel()
    watchdog = nil
    requestTimer?.cancel()
    requestTimer = nil
    for task in tasks { task.cancel() }
    tasks = []
    outbox.finish()
  }

  private func zx() -> String { WebChannelURL.randomZX(using: &generator) }
}
