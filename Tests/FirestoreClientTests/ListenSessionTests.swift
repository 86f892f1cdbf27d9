import FirestoreWire
import Foundation
import Testing

@testable import FirestoreClient

/// The Listen session's state machine driven by events alone: no socket, no task, no clock.
@Suite("Listen session")
struct ListenSessionTests {
  private typealias Entry = WebChannelMessage.Entry

  private static let silence = Duration.seconds(45)
  private static let addTarget2 = #"{"targetChange":{"targetChangeType":"ADD","targetIds":[2]}}"#

  private func request(_ id: Int32) -> ListenRequest {
    ListenRequest(database: "projects/p/databases/(default)", change: .removeTarget(id))
  }

  private func created(_ sessionID: String) -> Entry {
    Entry(
      id: 0,
      message: .created(sessionID: sessionID, hostPrefix: "", version: 8, serverVersion: 12, keepAliveMilliseconds: 30_000))
  }

  private func noop(_ id: Int) -> Entry { Entry(id: id, message: .noop) }

  private func data(_ id: Int, _ json: String = addTarget2) throws -> Entry {
    Entry(id: id, message: .data(try JSONParser.parse(json)))
  }

  /// A session (handshake `RID` 7) whose handshake, carrying one request and `token`, was
  /// answered with session `s1`; its back channel 1 is open.
  private func openSession(token: String? = "t1") -> ListenSession {
    var session = ListenSession(requestID: 7, requestTimeout: .seconds(10), backChannelSilence: Self.silence)
    _ = session.handle(.start([request(2)], forceRefreshToken: false))
    _ = session.handle(.tokenFetched(token, for: .handshake))
    _ = session.handle(.handshakeReplied([created("s1")], httpSessionID: nil))
    return session
  }

  /// `actions` as short text, to compare with what a test expects, in order.
  private func text(_ actions: [ListenSession.Action]) -> [String] {
    actions.map { action in
      switch action {
      case .fetchToken(let forceRefresh, let use):
        return "fetchToken(\(use)\(forceRefresh ? ", forced" : ""))"
      case .sendHandshake(let requests, let token, let requestID):
        return "handshake(RID \(requestID), \(requests.count) requests, token \(token ?? "none"))"
      case .openBackChannel(let generation, let sessionID, let lastArrayID, _):
        return "open(\(generation), SID \(sessionID), AID \(lastArrayID))"
      case .sendForward(let requests, let offset, let sessionID, let requestID, let lastArrayID, _):
        return "forward(SID \(sessionID), RID \(requestID), AID \(lastArrayID), ofs \(offset), \(requests.count) requests)"
      case .scheduleRequestTimeout(let serial, let after):
        return "timeout(\(serial), \(after))"
      case .cancelRequestTimeout:
        return "cancelTimeout"
      case .scheduleSilenceCheck(let generation, let after):
        return "silenceCheck(\(generation), \(after))"
      case .emit(let event):
        return "emit(\(text(event)))"
      case .terminateSession(let sessionID, let requestID, _):
        return "terminate(SID \(sessionID), RID \(requestID))"
      case .cancelAll:
        return "cancelAll"
      case .finish(let event):
        return "finish(\(event.map(text) ?? "nothing"))"
      }
    }
  }

  private func text(_ event: ListenChannel.Event) -> String {
    switch event {
    case .response: return "response"
    case .closed: return "closed"
    case .tokenChanged: return "tokenChanged"
    }
  }

  /// The error the session ended with, if `actions` end it with one.
  private func closingError(_ actions: [ListenSession.Action]) -> FirestoreError? {
    for case .finish(.closed(let error)?) in actions { return error }
    return nil
  }

  /// How a session ends after a failure with the back channel 1 open and no terminate yet.
  private let closedAfterRID8 = ["terminate(SID s1, RID 8)", "cancelAll", "finish(closed)"]

  @Test("the handshake carries the requests and the token, then back channel 1 opens at AID 0 under the silence check")
  func handshakeOpensBackChannel() {
    var session = ListenSession(requestID: 7, requestTimeout: .seconds(10), backChannelSilence: Self.silence)
    #expect(text(session.handle(.start([request(2), request(4)], forceRefreshToken: true))) == ["fetchToken(handshake, forced)"])
    #expect(
      text(session.handle(.tokenFetched("t1", for: .handshake)))
        == ["timeout(1, 10.0 seconds)", "handshake(RID 7, 2 requests, token t1)"])
    #expect(
      text(session.handle(.handshakeReplied([created("s1")], httpSessionID: "h1")))
        == ["cancelTimeout", "open(1, SID s1, AID 0)", "silenceCheck(1, 45.0 seconds)"])
    #expect(session.nextMapID == 2, "the next forward POST's map ids follow the handshake's")
    #expect(session.requestID == 7)
  }

  @Test("a handshake reply without a session id, or a failed token fetch, closes the session")
  func handshakeFailures() {
    var session = ListenSession(requestID: 7, requestTimeout: .seconds(10), backChannelSilence: Self.silence)
    _ = session.handle(.start([request(2)], forceRefreshToken: false))
    _ = session.handle(.tokenFetched(nil, for: .handshake))
    let actions = session.handle(.handshakeReplied([noop(1)], httpSessionID: nil))
    #expect(text(actions) == ["cancelAll", "finish(closed)"], "no session to terminate")
    #expect(closingError(actions)?.code == .unavailable)

    var other = ListenSession(requestID: 7, requestTimeout: .seconds(10), backChannelSilence: Self.silence)
    _ = other.handle(.start([request(2)], forceRefreshToken: false))
    let failed = other.handle(.tokenFailed(FirestoreError(.unauthenticated, "no token"), for: .handshake))
    #expect(closingError(failed)?.code == .unauthenticated)
  }

  @Test("an ended back channel is reopened after a token check, from the last array id")
  func renewal() throws {
    var session = openSession()
    #expect(text(session.handle(.received([noop(1), try data(2)], generation: 1, now: .seconds(1)))) == ["emit(response)"])
    #expect(text(session.handle(.backChannelEnded(generation: 1))) == ["fetchToken(renewal(generation: 1))"])
    #expect(
      text(session.handle(.tokenFetched("t1", for: .renewal(generation: 1))))
        == ["open(2, SID s1, AID 2)", "silenceCheck(2, 45.0 seconds)"])
    #expect(session.backChannelRenewals == 1)
    // The old back channel's late reports are ignored.
    #expect(session.handle(.received([try data(3)], generation: 1, now: .seconds(2))).isEmpty)
    #expect(session.handle(.backChannelFailed(FirestoreError(.unavailable, "lost"), generation: 1)).isEmpty)
    #expect(session.lastArrayID == 2)
  }

  @Test("a token changed at a renewal ends the session with tokenChanged instead of reopening")
  func tokenChangedAtRenewal() {
    var session = openSession()
    _ = session.handle(.backChannelEnded(generation: 1))
    #expect(
      text(session.handle(.tokenFetched("t2", for: .renewal(generation: 1))))
        == ["terminate(SID s1, RID 8)", "cancelAll", "finish(tokenChanged)"])
  }

  @Test("a user change checks the token: the same one keeps the session, another ends it with tokenChanged")
  func userChangeChecksToken() {
    var session = openSession()
    #expect(text(session.handle(.checkToken)) == ["fetchToken(userChange)"])
    #expect(text(session.handle(.tokenFetched("t1", for: .userChange))).isEmpty, "the handshake's token: nothing to do")
    #expect(text(session.handle(.checkToken)) == ["fetchToken(userChange)"])
    #expect(
      text(session.handle(.tokenFetched("t2", for: .userChange)))
        == ["terminate(SID s1, RID 8)", "cancelAll", "finish(tokenChanged)"])

    // Before the handshake's token is the session's, the check waits for it: that token
    // may have been fetched before the change.
    var early = ListenSession(requestID: 7, requestTimeout: .seconds(10), backChannelSilence: Self.silence)
    #expect(text(early.handle(.checkToken)).isEmpty, "not started")
    _ = early.handle(.start([request(2)], forceRefreshToken: false))
    #expect(text(early.handle(.checkToken)).isEmpty)
    #expect(
      text(early.handle(.tokenFetched("t1", for: .handshake)))
        == ["timeout(1, 10.0 seconds)", "handshake(RID 7, 1 requests, token t1)", "fetchToken(userChange)"])
    #expect(
      text(early.handle(.tokenFetched("t2", for: .userChange))) == ["cancelAll", "finish(tokenChanged)"],
      "no session to terminate yet")
  }

  @Test("the fourth back channel in a row ending without a new array gives up unavailable")
  func emptyRenewalsGiveUp() throws {
    var session = openSession()
    for generation in 1...3 {
      #expect(text(session.handle(.backChannelEnded(generation: generation))) == ["fetchToken(renewal(generation: \(generation)))"])
      _ = session.handle(.tokenFetched("t1", for: .renewal(generation: generation)))
    }
    let actions = session.handle(.backChannelEnded(generation: 4))
    #expect(text(actions) == closedAfterRID8)
    #expect(closingError(actions)?.code == .unavailable)

    // A new array (on back channel 3) starts the count again; a re-sent one (on 5) does not.
    var other = openSession()
    for generation in 1...5 {
      let arrays = generation == 3 ? [try data(1)] : [noop(generation == 5 ? 1 : 0)]
      _ = other.handle(.received(arrays, generation: generation, now: .seconds(1)))
      #expect(text(other.handle(.backChannelEnded(generation: generation))) == ["fetchToken(renewal(generation: \(generation)))"])
      _ = other.handle(.tokenFetched("t1", for: .renewal(generation: generation)))
    }
    #expect(closingError(other.handle(.backChannelEnded(generation: 6)))?.code == .unavailable)
  }

  @Test("arrays at or below the last array id are ignored")
  func duplicateArrays() throws {
    var session = openSession()
    #expect(
      text(session.handle(.received([try data(1), try data(2)], generation: 1, now: .seconds(1))))
        == ["emit(response)", "emit(response)"])
    #expect(
      text(session.handle(.received([try data(2), try data(1), noop(3), try data(3), try data(4)], generation: 1, now: .seconds(2))))
        == ["emit(response)"])
    #expect(session.lastArrayID == 4)
  }

  @Test("a data message with an error closes the session with its code, after the arrays before it")
  func streamError() throws {
    var session = openSession()
    let error = #"{"error":{"code":7,"status":"PERMISSION_DENIED","message":"denied"}}"#
    let actions = session.handle(.received([try data(1), try data(2, error), try data(3)], generation: 1, now: .seconds(1)))
    #expect(text(actions) == ["emit(response)"] + closedAfterRID8)
    #expect(closingError(actions)?.code == .permissionDenied)
    #expect(session.lastArrayID == 2)
  }

  @Test("a malformed ListenResponse closes the session as internal")
  func malformedResponse() throws {
    var session = openSession()
    let actions = session.handle(.received([try data(1, #"{"targetChange":{"targetIds":"x"}}"#)], generation: 1, now: .seconds(1)))
    #expect(closingError(actions)?.code == .internal)
  }

  @Test("stop and close messages end the session unavailable", arguments: [WebChannelMessage.stop, .close])
  func stopAndClose(message: WebChannelMessage) {
    var session = openSession()
    let actions = session.handle(.received([Entry(id: 1, message: message)], generation: 1, now: .seconds(1)))
    #expect(text(actions) == closedAfterRID8)
    #expect(closingError(actions)?.code == .unavailable)
  }

  @Test("forward POSTs go one at a time, each after a token check and the previous reply, with the next RID and map ids")
  func forwardQueue() throws {
    var session = ListenSession(requestID: 7, requestTimeout: .seconds(10), backChannelSilence: Self.silence)
    _ = session.handle(.start([request(2)], forceRefreshToken: false))
    #expect(session.handle(.send([request(4), request(6)])).isEmpty, "held until the session is named")
    _ = session.handle(.tokenFetched("t1", for: .handshake))
    #expect(
      text(session.handle(.handshakeReplied([created("s1")], httpSessionID: nil)))
        == ["cancelTimeout", "open(1, SID s1, AID 0)", "silenceCheck(1, 45.0 seconds)", "fetchToken(forwardPOST)"])
    #expect(session.handle(.send([request(8)])).isEmpty, "one at a time")
    _ = session.handle(.received([noop(1), noop(2)], generation: 1, now: .seconds(1)))
    #expect(
      text(session.handle(.tokenFetched("t1", for: .forwardPOST)))
        == ["timeout(2, 10.0 seconds)", "forward(SID s1, RID 8, AID 2, ofs 1, 2 requests)"])
    #expect(session.handle(.send([request(10)])).isEmpty, "the POST awaits its reply")
    #expect(text(session.handle(.forwardReplied)) == ["cancelTimeout", "fetchToken(forwardPOST)"])
    #expect(
      text(session.handle(.tokenFetched("t1", for: .forwardPOST)))
        == ["timeout(3, 10.0 seconds)", "forward(SID s1, RID 9, AID 2, ofs 3, 1 requests)"])
    #expect(text(session.handle(.forwardReplied)) == ["cancelTimeout", "fetchToken(forwardPOST)"])
    #expect(
      text(session.handle(.tokenFetched("t1", for: .forwardPOST)))
        == ["timeout(4, 10.0 seconds)", "forward(SID s1, RID 10, AID 2, ofs 4, 1 requests)"])
    #expect(text(session.handle(.forwardReplied)) == ["cancelTimeout"])
    #expect(session.nextMapID == 5)
  }

  @Test("a failed forward POST closes the session with its error")
  func forwardFailure() {
    var session = openSession()
    _ = session.handle(.send([request(4)]))
    _ = session.handle(.tokenFetched("t1", for: .forwardPOST))
    let actions = session.handle(.forwardFailed(FirestoreError(.unauthenticated, "HTTP 401")))
    #expect(text(actions) == ["terminate(SID s1, RID 9)", "cancelAll", "finish(closed)"])
    #expect(closingError(actions)?.code == .unauthenticated)
  }

  @Test("a token changed before a forward POST ends the session with tokenChanged and sends no POST")
  func tokenChangedBeforeForward() {
    var session = openSession()
    #expect(text(session.handle(.send([request(4)]))) == ["fetchToken(forwardPOST)"])
    #expect(
      text(session.handle(.tokenFetched("t2", for: .forwardPOST))) == ["terminate(SID s1, RID 8)", "cancelAll", "finish(tokenChanged)"])
    #expect(session.handle(.send([request(6)])).isEmpty)
  }

  @Test("a request timer fires for the request under way only; then the session closes deadlineExceeded")
  func requestTimeout() {
    var session = openSession()
    #expect(session.handle(.requestTimedOut(serial: 1)).isEmpty, "the handshake was answered")
    _ = session.handle(.send([request(4)]))
    _ = session.handle(.tokenFetched("t1", for: .forwardPOST))
    _ = session.handle(.forwardReplied)
    #expect(session.handle(.requestTimedOut(serial: 2)).isEmpty, "the first POST was answered")
    _ = session.handle(.send([request(6)]))
    _ = session.handle(.tokenFetched("t1", for: .forwardPOST))
    #expect(session.handle(.requestTimedOut(serial: 2)).isEmpty, "an older timer")
    let actions = session.handle(.requestTimedOut(serial: 3))
    #expect(text(actions) == ["terminate(SID s1, RID 10)", "cancelAll", "finish(closed)"])
    #expect(closingError(actions)?.code == .deadlineExceeded)
    #expect(session.handle(.forwardReplied).isEmpty, "a reply after the timeout")
  }

  @Test("a silence check before the limit waits out the rest; past it the back channel is renewed")
  func silenceCheck() throws {
    var session = openSession()
    _ = session.handle(.received([noop(1)], generation: 1, now: .seconds(10)))
    #expect(text(session.handle(.silenceCheck(generation: 1, now: .seconds(30)))) == ["silenceCheck(1, 25.0 seconds)"])
    #expect(text(session.handle(.silenceCheck(generation: 1, now: .seconds(56)))) == ["fetchToken(renewal(generation: 1))"])
    #expect(
      text(session.handle(.tokenFetched("t1", for: .renewal(generation: 1))))
        == ["open(2, SID s1, AID 1)", "silenceCheck(2, 45.0 seconds)"])
    #expect(session.backChannelRenewals == 0, "only ends the server made count")
    // A new back channel with nothing since it opened: its check is due a whole limit later.
    #expect(session.handle(.silenceCheck(generation: 1, now: .seconds(200))).isEmpty, "the old one's check")
    #expect(text(session.handle(.silenceCheck(generation: 2, now: .seconds(101)))) == ["fetchToken(renewal(generation: 2))"])
  }

  @Test("a session terminated during its handshake is terminated on the server once the reply names it")
  func terminateDuringHandshake() {
    var session = ListenSession(requestID: 7, requestTimeout: .seconds(10), backChannelSilence: Self.silence)
    _ = session.handle(.start([request(2)], forceRefreshToken: false))
    _ = session.handle(.tokenFetched("t1", for: .handshake))
    #expect(text(session.handle(.terminate)) == ["cancelAll", "finish(nothing)"])
    #expect(text(session.handle(.handshakeReplied([created("s1")], httpSessionID: nil))) == ["terminate(SID s1, RID 8)"])
  }

  @Test("after terminate nothing more is done")
  func terminateEndsEverything() throws {
    var session = openSession()
    #expect(text(session.handle(.send([request(4)]))) == ["fetchToken(forwardPOST)"])
    #expect(text(session.handle(.terminate)) == ["terminate(SID s1, RID 8)", "cancelAll", "finish(nothing)"])
    let later: [ListenSession.Event] = [
      .tokenFetched("t1", for: .forwardPOST), .send([request(6)]), .received([try data(1)], generation: 1, now: .seconds(1)),
      .backChannelEnded(generation: 1), .backChannelFailed(FirestoreError(.unavailable, "lost"), generation: 1),
      .silenceCheck(generation: 1, now: .seconds(100)), .requestTimedOut(serial: 1), .forwardReplied,
      .forwardFailed(FirestoreError(.unavailable, "lost")), .tokenFetched("t2", for: .renewal(generation: 1)),
      .tokenFailed(FirestoreError(.unavailable, "lost"), for: .forwardPOST), .handshakeFailed(FirestoreError(.unavailable, "lost")),
      .start([request(2)], forceRefreshToken: false), .terminate,
    ]
    for event in later { #expect(session.handle(event).isEmpty, "\(event)") }
  }
}
