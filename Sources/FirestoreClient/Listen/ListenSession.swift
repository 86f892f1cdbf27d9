import FirestoreWire
import Foundation

/// The logic of one WebChannel Listen session (see `Docs/Protocol/WebChannel.md`), as a pure
/// value: feed it what happened (``Event``) and it returns what to do (``Action``). It sends
/// nothing, starts no task and reads no clock; ``ListenChannel`` performs the actions and
/// feeds their outcomes back.
///
/// * The handshake POST carries the first requests (map ids from 0) and the token the
///   session keeps for its whole life; its reply names the session. A session terminated
///   while its handshake is under way is terminated on the server once the reply names it.
/// * One back channel is open at a time, numbered by a generation that rises with each
///   open; anything reported for an older one is ignored. It asks for the arrays above the
///   last one processed (`AID`), so arrays delivered again are dropped. When the server
///   ends it, or it stays silent for ``backChannelSilence``, it is reopened after checking
///   the token; a fourth end in a row without a new array gives up.
/// * Forward POSTs go one at a time, in the order queued, each after checking the token
///   and after the previous one's reply; each carries the next `RID` and the map ids
///   following the previous ones (`ofs`).
/// * A handshake or forward POST gets ``requestTimeout`` to finish; a timer that fires for
///   a request already answered is ignored.
/// * Any failure, a token that changed, or ``Event/terminate`` ends the session for good:
///   the server is told (once it named the session), everything under way is cancelled and
///   the last event is reported; later events are ignored.
struct ListenSession: Sendable {
  /// What a token fetch is for; its outcome comes back with it.
  enum TokenUse: Sendable, Equatable {
    /// The token the handshake carries, which the session keeps.
    case handshake
    /// The check before the next forward POST: headers on a forward POST are ignored, so a
    /// new token needs a new session.
    case forwardPOST
    /// The check before reopening back channel `generation`'s successor: where a session
    /// with no forward traffic notices a new token.
    case renewal(generation: Int)
    /// A check asked for from outside: the signed-in user changed.
    case userChange
  }

  /// What happened.
  enum Event: Sendable {
    /// Open the session with `requests` in the handshake.
    case start([ListenRequest], forceRefreshToken: Bool)
    /// Queue `requests` for one forward POST.
    case send([ListenRequest])
    /// The owner ends the session.
    case terminate
    /// The signed-in user changed: the session fetches the token again, and ends with
    /// ``ListenChannel/Event/tokenChanged`` when it is no longer the handshake's.
    case checkToken
    /// A token fetched for `use` (`nil`: no token provider).
    case tokenFetched(String?, for: TokenUse)
    /// The token provider failed.
    case tokenFailed(any Error, for: TokenUse)
    /// The handshake's reply: its arrays and its `X-HTTP-Session-Id` header.
    case handshakeReplied([WebChannelMessage.Entry], httpSessionID: String?)
    /// The handshake failed (no reply, an HTTP error, an unreadable body).
    case handshakeFailed(any Error)
    /// Back channel `generation` delivered a chunk with these arrays (possibly none) at
    /// `now`, on the driver's clock.
    case received([WebChannelMessage.Entry], generation: Int, now: Duration)
    /// The server ended back channel `generation` cleanly.
    case backChannelEnded(generation: Int)
    /// Back channel `generation` failed.
    case backChannelFailed(any Error, generation: Int)
    /// The forward POST under way was answered.
    case forwardReplied
    /// The forward POST under way failed.
    case forwardFailed(any Error)
    /// The request timer with this serial fired.
    case requestTimedOut(serial: Int)
    /// The silence check scheduled for back channel `generation` is due; `now` is on the
    /// driver's clock.
    case silenceCheck(generation: Int, now: Duration)
  }

  /// What to do, in order.
  enum Action: Sendable {
    /// Ask the token provider for a token and report it with ``Event/tokenFetched(_:for:)``.
    case fetchToken(forceRefresh: Bool, for: TokenUse)
    /// POST the handshake with `requests` (map ids from 0) and `token`, as request `requestID`.
    case sendHandshake([ListenRequest], token: String?, requestID: Int)
    /// Open back channel `generation`, from the arrays after `lastArrayID`, in place of any
    /// open one.
    case openBackChannel(generation: Int, sessionID: String, lastArrayID: Int, httpSessionID: String?)
    /// POST `requests` on the forward channel, their map ids from `offset`.
    case sendForward(
      [ListenRequest], offset: Int, sessionID: String, requestID: Int, lastArrayID: Int, httpSessionID: String?)
    /// Start the request timer `serial`, in place of any running one; when it fires, report
    /// ``Event/requestTimedOut(serial:)``.
    case scheduleRequestTimeout(serial: Int, after: Duration)
    /// Stop the running request timer: its request was answered.
    case cancelRequestTimeout
    /// Report ``Event/silenceCheck(generation:now:)`` after `after`, in place of any check
    /// pending.
    case scheduleSilenceCheck(generation: Int, after: Duration)
    /// Report `event` to the owner.
    case emit(ListenChannel.Event)
    /// Tell the server the session is over (best effort), as request `requestID`.
    case terminateSession(sessionID: String, requestID: Int, httpSessionID: String?)
    /// Cancel everything under way: requests, back channel, timers, token fetches.
    case cancelAll
    /// End the owner's events, reporting `event` last if there is one.
    case finish(reporting: ListenChannel.Event?)
  }

  /// A handshake or forward POST under the request timeout.
  private struct TimedRequest: Sendable {
    var serial: Int
    /// What the request is, for the timeout's message.
    var what: String
  }

  /// Where the forward channel is.
  private enum ForwardState: Sendable {
    case idle
    /// Checking the token before the next POST.
    case checkingToken
    /// A POST awaits its reply.
    case posting
  }

  /// The longest a handshake or forward POST may take.
  let requestTimeout: Duration
  /// A back channel silent this long is reopened.
  let backChannelSilence: Duration

  /// Whether the session is over; nothing more is done (but terminating a session the
  /// handshake names late).
  private(set) var isClosed = false
  /// The `RID` of the last request sent: the handshake's, then one more for each forward
  /// POST and the terminate.
  private(set) var requestID: Int
  /// The map id of the next request on the forward channel.
  private(set) var nextMapID = 0
  /// The highest array id processed (`AID`).
  private(set) var lastArrayID = 0
  /// The newest back channel's number.
  private(set) var backChannelGeneration = 0
  /// How many times the back channel was reopened after the server ended it.
  private(set) var backChannelRenewals = 0

  private var isStarted = false
  /// The handshake's requests while its token is fetched.
  private var handshakeRequests: [ListenRequest] = []
  /// The token the handshake carried; the server keeps it for the whole session
  /// (`Docs/Protocol/WebChannel.md`, Credentials).
  private var sessionToken: String?
  /// Whether ``sessionToken`` is the handshake's (fetched), not yet unknown.
  private var hasSessionToken = false
  /// A user change came before the handshake's token was the session's: check it then.
  private var checksAfterHandshakeToken = false
  private var sessionID: String?
  private var httpSessionID: String?
  /// Back channels in a row that ended without a new array.
  private var emptyRenewals = 0
  /// When the open back channel last delivered anything; `nil` before it did (its silence
  /// check was scheduled when it opened).
  private var lastActivity: Duration?
  /// Batches waiting for a forward POST, oldest first.
  private var outbox: [[ListenRequest]] = []
  private var forward = ForwardState.idle
  private var requestSerial = 0
  private var timed: TimedRequest?

  /// Creates a session whose handshake is request `requestID`.
  init(requestID: Int, requestTimeout: Duration, backChannelSilence: Duration) {
    self.requestID = requestID
    self.requestTimeout = requestTimeout
    self.backChannelSilence = backChannelSilence
  }

  /// Applies `event` and returns what to do, in order.
  mutating func handle(_ event: Event) -> [Action] {
    switch event {
    case .start(let requests, let forceRefreshToken):
      guard !isStarted, !isClosed else { return [] }
      isStarted = true
      handshakeRequests = requests
      return [.fetchToken(forceRefresh: forceRefreshToken, for: .handshake)]
    case .send(let requests):
      guard !isClosed else { return [] }
      outbox.append(requests)
      return forwardNext()
    case .terminate:
      return close(reporting: nil)
    case .checkToken:
      guard isStarted, !isClosed else { return [] }
      // The handshake's token may be fetched still, from before the change: check once it
      // is the session's.
      guard hasSessionToken else {
        checksAfterHandshakeToken = true
        return []
      }
      return [.fetchToken(forceRefresh: false, for: .userChange)]
    case .tokenFetched(let token, let use):
      return tokenFetched(token, for: use)
    case .tokenFailed(let error, _):
      return fail(error)
    case .handshakeReplied(let entries, let httpSessionID):
      return handshakeReplied(entries, httpSessionID: httpSessionID)
    case .handshakeFailed(let error), .forwardFailed(let error):
      return fail(error)
    case .received(let entries, let generation, let now):
      guard !isClosed, generation == backChannelGeneration else { return [] }
      lastActivity = now
      return receive(entries)
    case .backChannelEnded(let generation):
      return backChannelEnded(generation: generation)
    case .backChannelFailed(let error, let generation):
      guard generation == backChannelGeneration else { return [] }
      return fail(error)
    case .forwardReplied:
      guard !isClosed else { return [] }
      forward = .idle
      return endTimedRequest() + forwardNext()
    case .requestTimedOut(let serial):
      guard !isClosed, let timed, timed.serial == serial else { return [] }
      return fail(FirestoreError(.deadlineExceeded, "\(timed.what) did not finish within \(requestTimeout)"))
    case .silenceCheck(let generation, let now):
      return silenceCheck(generation: generation, now: now)
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

  // MARK: - Handshake

  /// Goes on with what the token was fetched for: the handshake, or, if it is still the
  /// session's, the next forward POST or the back channel's renewal.
  private mutating func tokenFetched(_ token: String?, for use: TokenUse) -> [Action] {
    guard !isClosed else { return [] }
    switch use {
    case .handshake:
      sessionToken = token
      hasSessionToken = true
      let requests = handshakeRequests
      handshakeRequests = []
      nextMapID = requests.count
      var actions = timeRequest("WebChannel handshake") + [.sendHandshake(requests, token: token, requestID: requestID)]
      if checksAfterHandshakeToken {
        checksAfterHandshakeToken = false
        actions.append(.fetchToken(forceRefresh: false, for: .userChange))
      }
      return actions
    case .forwardPOST:
      guard token == sessionToken else { return close(reporting: .tokenChanged) }
      return sendForward()
    case .renewal(let generation):
      guard token == sessionToken else { return close(reporting: .tokenChanged) }
      guard generation == backChannelGeneration else { return [] }
      return openBackChannel()
    case .userChange:
      return token == sessionToken ? [] : close(reporting: .tokenChanged)
    }
  }

  /// Names the session from the reply's `c` message and opens it.
  private mutating func handshakeReplied(_ entries: [WebChannelMessage.Entry], httpSessionID: String?) -> [Action] {
    var sid: String?
    for entry in entries {
      if case .created(let id, _, _, _, _) = entry.message { sid = id }
    }
    guard let sid else {
      return fail(FirestoreError(.unavailable, "the WebChannel handshake reply has no session id"))
    }
    guard sessionID == nil else { return [] }
    sessionID = sid
    self.httpSessionID = httpSessionID
    // Terminated while the handshake was under way: the server has a session to end.
    guard !isClosed else { return terminateSession() }
    return endTimedRequest() + openBackChannel() + forwardNext()
  }

  // MARK: - Back channel

  /// Opens the next back channel, from the last array processed.
  private mutating func openBackChannel() -> [Action] {
    guard !isClosed, let sessionID else { return [] }
    backChannelGeneration += 1
    lastActivity = nil
    return [
      .openBackChannel(
        generation: backChannelGeneration, sessionID: sessionID, lastArrayID: lastArrayID, httpSessionID: httpSessionID),
      .scheduleSilenceCheck(generation: backChannelGeneration, after: backChannelSilence),
    ]
  }

  /// Renews a back channel the server ended, unless it keeps ending without data.
  private mutating func backChannelEnded(generation: Int) -> [Action] {
    guard !isClosed, generation == backChannelGeneration else { return [] }
    backChannelRenewals += 1
    // The emulator answers every new back channel with at least a noop; a server that keeps
    // ending it without any new array would otherwise make this loop spin.
    emptyRenewals += 1
    guard emptyRenewals <= 3 else {
      return fail(FirestoreError(.unavailable, "the WebChannel back channel keeps ending without data"))
    }
    return [.fetchToken(forceRefresh: false, for: .renewal(generation: generation))]
  }

  /// Renews a back channel silent for ``backChannelSilence``, or checks again when it will
  /// have been.
  private mutating func silenceCheck(generation: Int, now: Duration) -> [Action] {
    guard !isClosed, generation == backChannelGeneration else { return [] }
    // Without data the check is due a whole silence after the open.
    if let lastActivity, now - lastActivity < backChannelSilence {
      return [.scheduleSilenceCheck(generation: generation, after: backChannelSilence - (now - lastActivity))]
    }
    return [.fetchToken(forceRefresh: false, for: .renewal(generation: generation))]
  }

  /// Processes the arrays not processed yet, in order, up to the first that ends the session.
  private mutating func receive(_ entries: [WebChannelMessage.Entry]) -> [Action] {
    var actions: [Action] = []
    for entry in entries where entry.id > lastArrayID {
      lastArrayID = entry.id
      emptyRenewals = 0
      switch entry.message {
      case .noop, .created: continue
      case .stop: return actions + fail(FirestoreError(.unavailable, "the server stopped the WebChannel session"))
      case .close: return actions + fail(FirestoreError(.unavailable, "the server closed the WebChannel session"))
      case .data(let json):
        if let error = Self.streamError(json) { return actions + fail(error) }
        do {
          actions.append(.emit(.response(try ListenResponse(json: json))))
        } catch let error as WireFormatError {
          return actions
            + fail(FirestoreError(.internal, "server sent a malformed ListenResponse: \(error)", underlyingError: error))
        } catch {
          return actions + fail(error)
        }
      }
    }
    return actions
  }

  // MARK: - Forward channel

  /// Starts the next forward POST's token check when one may go.
  private mutating func forwardNext() -> [Action] {
    guard !isClosed, sessionID != nil, forward == .idle, !outbox.isEmpty else { return [] }
    forward = .checkingToken
    return [.fetchToken(forceRefresh: false, for: .forwardPOST)]
  }

  /// Sends the oldest batch, its token checked.
  private mutating func sendForward() -> [Action] {
    guard forward == .checkingToken, let sessionID, !outbox.isEmpty else { return [] }
    forward = .posting
    let batch = outbox.removeFirst()
    requestID += 1
    let offset = nextMapID
    nextMapID += batch.count
    return timeRequest("WebChannel forward POST") + [
      .sendForward(
        batch, offset: offset, sessionID: sessionID, requestID: requestID, lastArrayID: lastArrayID,
        httpSessionID: httpSessionID)
    ]
  }

  // MARK: - Requests

  /// Puts the request about to go under the request timeout.
  private mutating func timeRequest(_ what: String) -> [Action] {
    requestSerial += 1
    timed = TimedRequest(serial: requestSerial, what: what)
    return [.scheduleRequestTimeout(serial: requestSerial, after: requestTimeout)]
  }

  /// Stops the request timer: its request was answered.
  private mutating func endTimedRequest() -> [Action] {
    guard timed != nil else { return [] }
    timed = nil
    return [.cancelRequestTimeout]
  }

  /// Tells the server the session is over, once the handshake named it.
  private mutating func terminateSession() -> [Action] {
    guard let sessionID else { return [] }
    requestID += 1
    return [.terminateSession(sessionID: sessionID, requestID: requestID, httpSessionID: httpSessionID)]
  }

  /// Ends the session with `error` (as unavailable when it is not a ``FirestoreError``).
  private mutating func fail(_ error: any Error) -> [Action] {
    let failure =
      error as? FirestoreError
      ?? FirestoreError(.unavailable, "the Listen channel failed: \(error)", underlyingError: error as? WireFormatError)
    return close(reporting: .closed(failure))
  }

  /// Ends the session, reporting `event` as the last one.
  private mutating func close(reporting event: ListenChannel.Event?) -> [Action] {
    guard !isClosed else { return [] }
    isClosed = true
    outbox = []
    timed = nil
    return terminateSession() + [.cancelAll, .finish(reporting: event)]
  }
}
