import FirestoreEngine
import FirestoreWire
import Foundation

/// Multiplexes every real-time listener of one ``Firestore`` instance over one Listen
/// stream (a ``ListenChannel``), owning the ``WatchState`` that turns server messages into
/// snapshots.
///
/// Target IDs are 2, 4, 6, … and never reused. The channel opens with the first listener
/// and is terminated when the last one goes. When it fails, the manager backs off
/// (``Backoff/stream``, jittered and slept through the settings' retry policy),
/// opens a new channel and re-adds every live target with its resume token (what a failure
/// means is ``RetryClass/stream``'s). A changed auth token, or the first `UNAUTHENTICATED`
/// since data last flowed (with a refreshed token), reopens the channel the same way but at
/// once.
///
/// Listeners are told the stream is down (their data turns `isFromCache`) as the Apple SDK
/// decides it is offline: when a stream that never heard from the server fails, or when the
/// first attempt to reopen a stream that was in sync fails too. One failure of a stream in
/// sync is a blip the reconnect usually hides, not a reason to mark every listener stale.
actor ListenManager {
  /// What a listener receives: a snapshot, or the error that ended it.
  typealias Handler = @Sendable (Result<WatchSnapshot, FirestoreError>) -> Void

  /// Who hears about the stream as a whole.
  struct Observer: Sendable {
    /// The stream is down while listeners remain: the network was disabled, or it failed and
    /// the manager counts it as offline (see the type's discussion).
    var connectionLost: @Sendable () -> Void = {}
    /// Every snapshot of one server message was handed to its listener.
    var roundDelivered: @Sendable () -> Void = {}
    /// Whether the server can be reached is unknown again: the network was enabled, or
    /// the last listener went with it enabled (the stream closed for want of targets, not
    /// for a failure).
    var reachabilityUnknown: @Sendable () -> Void = {}
  }

  private struct Listener {
    var target: Target
    var handler: Handler
    /// Whether its resume point is kept when it ends, for a later listen of its documents.
    var leavesResumePoint: Bool
    /// Told when the server's count says the target's documents are not all known and the
    /// query runs again: what the listener shows is out of sync until it is CURRENT again.
    var outOfSync: (@Sendable () -> Void)?
  }

  private var configuration: ListenChannel.Configuration?
  private var retryPolicy = RetryPolicy()
  private var state = WatchState()
  private var listeners: [Int32: Listener] = [:]
  private var nextTargetID: Int32 = 2
  private var channel: ListenChannel?
  private var failedAttempts = 0
  private var resumePoints = ResumePoints()
  /// How many listens started from a resume point (for tests).
  private(set) var resumedListens = 0
  /// The server answered on the current stream since it last failed or was opened for new
  /// credentials (the Apple SDK's `OnlineState.online`).
  private var isOnline = false
  private var isBackingOff = false
  /// The next handshake must ask for a fresh token (the last one was rejected).
  private var forceRefreshToken = false
  /// An `UNAUTHENTICATED` was already answered with an immediate reconnect since data last
  /// flowed; another one backs off, so a token the server keeps rejecting cannot make the
  /// manager spin.
  private var retriedUnauthenticated = false
  /// The handshake and forward POST timeout given to new channels.
  private var requestTimeout = ListenChannel.Configuration.defaultRequestTimeout
  /// What waits out the request timeout of new channels.
  private var requestTimer = ListenChannel.Configuration.defaultRequestTimer
  /// How long a back channel of a new channel may stay silent before it is reopened.
  private var backChannelSilence = ListenChannel.Configuration.defaultBackChannelSilence
  /// Whether a stream may be opened (``Firestore/disableNetwork()`` clears it).
  private var isNetworkEnabled = true
  private let observer: Observer

  /// How many channels (handshakes) were opened, for tests.
  private(set) var handshakeCount = 0
  /// Why the last session ended on an error, for tests to report.
  private(set) var lastCloseError: FirestoreError?
  /// Why the last session ended, while no session since has heard from the server
  /// (``Firestore/listenStreamError``).
  private(set) var streamError: FirestoreError?
  /// How many listeners are registered, for tests.
  var listenerCount: Int { listeners.count }
  /// The current channel, for tests.
  var currentChannel: ListenChannel? { channel }

  /// Creates a manager; it is configured by its first ``listen(_:resumingFrom:leavesResumePoint:outOfSync:settings:database:handler:)``.
  init(observer: Observer = Observer()) {
    self.observer = observer
  }

  /// Closes the stream and keeps it closed (`false`), or opens it again for the listeners
  /// that remain (`true`). Listeners stay registered either way.
  func setNetworkEnabled(_ enabled: Bool) {
    guard enabled != isNetworkEnabled else { return }
    isNetworkEnabled = enabled
    if enabled {
      observer.reachabilityUnknown()
      openChannel()
    } else if !listeners.isEmpty {
      closeChannel()
      observer.connectionLost()
    }
  }

  /// Forgets every listener without telling them and closes the stream (``Firestore/terminate()``).
  func shutdown() {
    listeners = [:]
    isNetworkEnabled = false
    closeChannel()
  }

  /// Sets the handshake and forward POST timeout of channels opened from now on (for tests).
  func setRequestTimeout(_ timeout: Duration) {
    requestTimeout = timeout
    configuration?.requestTimeout = timeout
  }

  /// Sets what waits out the request timeout of channels opened from now on (for tests,
  /// which end the wait when they choose).
  func setRequestTimer(_ timer: @escaping @Sendable (Duration) async throws -> Void) {
    requestTimer = timer
    configuration?.requestTimer = timer
  }

  /// Sets how long back channels of channels opened from now on may stay silent (for tests).
  func setBackChannelSilence(_ silence: Duration) {
    backChannelSilence = silence
    configuration?.backChannelSilence = silence
  }

  /// Starts listening to `kind` and returns the target ID that ``unlisten(_:)`` takes.
  func listen(
    _ kind: Target.Kind, resumingFrom resume: (token: Data, documents: [Document])? = nil, leavesResumePoint: Bool = false,
    outOfSync: (@Sendable () -> Void)? = nil, settings: ClientConfiguration, database: String, handler: @escaping Handler
  ) -> Int32 {
    if configuration == nil {
      configuration = ListenChannel.Configuration(
        // A back channel holds its connection for as long as the listen lasts; the socket
        // transport opens connections as needed (no per-host limit), so listens share it.
        baseURL: settings.baseURL, database: database, transport: settings.effectiveTransport,
        credentials: RequestCredentials(database: database, tokenProvider: settings.tokenProvider), requestTimeout: requestTimeout,
        requestTimer: requestTimer,
        backChannelSilence: backChannelSilence)
      retryPolicy = settings.retryPolicy
    }
    let id = nextTargetID
    nextTargetID += 2
    let target = Target(targetID: id, kind: kind)
    listeners[id] = Listener(target: target, handler: handler, leavesResumePoint: leavesResumePoint, outOfSync: outOfSync)
    var added = target
    added.resumeToken = resume?.token
    state.addTarget(added, resumingFrom: resume?.documents ?? [])
    if resume != nil { resumedListens += 1 }
    if let channel {
      let request = self.request(.addTarget(added))
      channel.send([request])
    } else if !isBackingOff {
      openChannel()
    }
    if !isNetworkEnabled { observer.connectionLost() }
    return id
  }

  /// Takes where an ended listen of `kind` could resume (see ``ResumePoints``): pass its
  /// token, with the documents it names, to ``listen(_:resumingFrom:leavesResumePoint:outOfSync:settings:database:handler:)``.
  func resumePoint(for kind: Target.Kind) -> ResumePoints.Point? {
    resumePoints.take(for: kind)
  }

  /// Stops the listener with target ID `id`; unknown IDs are ignored.
  func unlisten(_ id: Int32) {
    guard let listener = listeners.removeValue(forKey: id) else { return }
    if listener.leavesResumePoint, let (token, versions) = state.resumePoint(for: id) {
      resumePoints.insert(ResumePoints.Point(token: token, versions: versions), for: listener.target.kind)
    }
    state.removeTarget(id)
    if listeners.isEmpty {
      lastListenerGone()
    } else if let channel {
      let request = self.request(.removeTarget(id))
      channel.send([request])
    }
  }

  // MARK: - Channel

  private func request(_ change: ListenRequest.Change) -> ListenRequest {
    ListenRequest(database: configuration?.database ?? "", change: change)
  }

  /// The addTarget requests that (re-)create every live target, with resume tokens.
  private func addRequestsForAllTargets() -> [ListenRequest] {
    listeners.keys.sorted().map { id in
      var target = listeners[id]!.target
      target.resumeToken = state.resumeToken(for: id)
      return request(.addTarget(target))
    }
  }

  private func openChannel() {
    guard channel == nil, isNetworkEnabled, let configuration, !listeners.isEmpty else { return }
    let channel = ListenChannel(configuration: configuration)
    self.channel = channel
    handshakeCount += 1
    let requests = addRequestsForAllTargets()
    let forceRefresh = forceRefreshToken
    forceRefreshToken = false
    Task {
      await channel.start(with: requests, forceRefreshToken: forceRefresh)
      for await event in channel.events {
        await self.handle(event, from: channel)
      }
    }
  }

  /// The signed-in user changed: a channel keeps the credentials of its handshake, so the
  /// channel checks its token now rather than at its next request, and a new one reopens
  /// the listens with it (``ListenChannel/Event/tokenChanged``), as the Apple SDK restarts
  /// its streams; the server then applies the new user's rules to every target. A channel
  /// opened with the new token already stays.
  func credentialsChanged() async {
    await channel?.checkToken()
  }

  /// No listener is left: the stream closes for want of targets, not for a failure, so
  /// whether the server can be reached is unknown again.
  private func lastListenerGone() {
    closeChannel()
    if isNetworkEnabled { observer.reachabilityUnknown() }
  }

  private func closeChannel() {
    guard let channel else { return }
    self.channel = nil
    failedAttempts = 0
    isOnline = false
    state.connectionLost()
    Task { await channel.terminate() }
  }

  private func handle(_ event: ListenChannel.Event, from source: ListenChannel) async {
    guard source === channel else { return }
    switch event {
    case .response(let response):
      failedAttempts = 0
      isOnline = true
      streamError = nil
      retriedUnauthenticated = false
      var delivered = false
      for action in state.apply(response) {
        if case .snapshot = action { delivered = true }
        perform(action)
      }
      if delivered { observer.roundDelivered() }
    case .tokenChanged:
      // Not a failure: the server is fine, the session just carries the old credentials.
      channel = nil
      isOnline = false
      state.connectionLost()
      openChannel()
    case .closed(let error):
      channel = nil
      lastCloseError = error
      streamError = error
      state.connectionLost()
      let wasOnline = isOnline
      isOnline = false
      guard !listeners.isEmpty else { return }
      if !wasOnline { observer.connectionLost() }
      // A refused token is never sent again: the next handshake asks for a fresh one.
      if error.code == .unauthenticated { forceRefreshToken = true }
      let verdict = RetryClass.stream.verdict(
        on: error, attempt: failedAttempts + 1, policy: retryPolicy, credentialsRefreshed: retriedUnauthenticated,
        hasTokenProvider: configuration?.credentials.tokenProvider != nil)
      if verdict == .refreshCredentials {
        // Refused (or expired mid-session): reopen at once with the fresh token.
        retriedUnauthenticated = true
        openChannel()
        return
      }
      guard case .backOff(let cap) = verdict else { return }
      failedAttempts += 1
      isBackingOff = true
      try? await retryPolicy.sleep(retryPolicy.jitter(cap))
      isBackingOff = false
      if channel == nil { openChannel() }
    }
  }

  /// What a target listens to, for error messages: a document or a query's collection.
  static func describe(_ kind: Target.Kind) -> String {
    switch kind {
    case .documents(let names):
      return names.map { name in "document " + (name.range(of: "/documents/").map { String(name[$0.upperBound...]) } ?? name) }
        .joined(separator: ", ")
    case .query(let parent, let query):
      let collection = query.from.first?.collectionID ?? ""
      let under = parent.range(of: "/documents/").map { String(parent[$0.upperBound...]) + "/" } ?? ""
      return "query on \(under)\(collection)"
    }
  }

  private func perform(_ action: WatchAction) {
    switch action {
    case .snapshot(let id, let snapshot):
      listeners[id]?.handler(.success(snapshot))
    case .targetError(let id, let code, let message):
      guard let listener = listeners.removeValue(forKey: id) else { return }
      let errorCode = FirestoreError.Code(rawValue: code) ?? .unknown
      // The emulator's cause often has no message (or only whitespace): say what was refused.
      let detail = message.trimmingCharacters(in: .whitespacesAndNewlines)
      listener.handler(
        .failure(
          FirestoreError(
            errorCode, "the server ended the listen to \(Self.describe(listener.target.kind))" + (detail.isEmpty ? "" : ": " + detail))))
      if listeners.isEmpty { lastListenerGone() }
    case .resetTarget(let id):
      listeners[id]?.outOfSync?()
      guard let channel, let target = listeners[id]?.target else { return }
      let requests = [request(.removeTarget(id)), request(.addTarget(target))]
      channel.send(requests)
    }
  }
}
