import FirestoreWire

/// Serves `…/google.firestore.v1.Firestore/Listen/channel` the way the emulator's
/// WebChannel server does (see `Docs/Protocol/WebChannel.md`): handshake POST, forward POSTs,
/// streaming back-channel GETs (`RID=rpc`) and `TYPE=terminate`.
///
/// Differences from the emulator: a handshake without `database` gets 400 instead of
/// hanging, an unparseable forward body gets 400 instead of wedging the session, and an
/// unparseable ListenRequest gets a stream error instead of silence.
struct ListenChannelService: Sendable {
  /// The sessions and their targets.
  let sessions: ListenSessionTable

  /// Whether a request is for the Listen channel.
  static func handles(_ request: MockHTTPRequest) -> Bool {
    request.path == WebChannelURL.path
  }

  /// Answers one channel request, then ends its connection without saying so, as the
  /// emulator does (verified: it closes the connection right after every channel reply,
  /// though the reply carries no `Connection: close`).
  func handle(_ request: MockHTTPRequest) -> MockHTTPResponse {
    var response = answer(request)
    response.closesConnectionSilently = true
    return response
  }

  private func answer(_ request: MockHTTPRequest) -> MockHTTPResponse {
    guard let id = request.queryValue("SID") else {
      guard request.method == "POST" else { return Self.empty(400) }
      return handshake(request)
    }
    if request.faults.contains(where: { if case .closeSessionAfterFrames = $0 { true } else { false } }),
      request.queryValue("RID") != "rpc"
    {
      sessions.terminate(id)
    }
    if request.queryValue("TYPE") == "terminate" {
      return sessions.terminate(id) ? Self.framed(200, []) : Self.empty(400)
    }
    let acknowledged = request.queryValue("AID").flatMap { Int($0) }
    switch request.method {
    case "GET": return backChannel(request, id: id, acknowledged: acknowledged)
    case "POST": return forward(request, id: id, acknowledged: acknowledged)
    default: return Self.empty(400)
    }
  }

  private func handshake(_ request: MockHTTPRequest) -> MockHTTPResponse {
    guard let database = request.queryValue("database"), !database.isEmpty else {
      return .text(400, "Missing database parameter.")
    }
    guard request.queryValue("VER") == WebChannelURL.version, request.queryValue("RID") != nil else { return Self.framed(200, []) }
    let body: (offset: Int, messages: [JSONValue])
    do {
      body = try WebChannelForwardBody.decode(String(decoding: request.body, as: UTF8.self))
    } catch {
      return .text(400, "\(error)")
    }
    guard let id = sessions.create(database: database, offset: body.offset, messages: body.messages) else { return Self.empty(400) }
    let keepAlive = request.queryValue("CVER") != nil ? 30_000 : nil
    let created = WebChannelMessage.created(sessionID: id, hostPrefix: "", version: 8, serverVersion: 12, keepAliveMilliseconds: keepAlive)
    var response = Self.framed(200, WebChannelFrameWriter.frame([WebChannelMessage.Entry(id: 0, message: created)]))
    response.headers.append(
      ("access-control-expose-headers", "x-client-wire-protocol, x-http-session-id, x-http-initial-response"))
    return response
  }

  private func forward(_ request: MockHTTPRequest, id: String, acknowledged: Int?) -> MockHTTPResponse {
    let body: (offset: Int, messages: [JSONValue])
    do {
      body = try WebChannelForwardBody.decode(String(decoding: request.body, as: UTF8.self))
    } catch {
      return .text(400, "\(error)")
    }
    // A POST without RID is answered, but its messages are dropped (as the emulator does).
    let deliver = request.queryValue("RID") != nil
    guard
      let reply = sessions.forward(id, acknowledged: acknowledged, offset: body.offset, messages: body.messages, deliver: deliver)
    else { return Self.empty(400) }
    return Self.framed(200, WebChannelFrameWriter.frame(reply.json))
  }

  private func backChannel(_ request: MockHTTPRequest, id: String, acknowledged: Int?) -> MockHTTPResponse {
    guard let generation = sessions.openBackChannel(id, acknowledged: acknowledged) else { return Self.empty(400) }
    let sessions = self.sessions
    let faults = request.faults
    let arrival = request.arrival
    let cursor = acknowledged ?? 0
    return MockHTTPResponse(
      status: 200,
      headers: [
        ("content-type", "text/plain; charset=utf-8"), ("cache-control", "private, max-age=0"), ("x-content-type-options", "nosniff"),
      ],
      body: .streaming { writer in
        try sessions.streamBackChannel(id, generation: generation, cursor: cursor, arrival: arrival, faults: faults, writer: writer)
      })
  }

  /// A chunked `text/plain` response carrying `bytes` (nothing when empty), as the
  /// emulator's channel replies are.
  private static func framed(_ status: Int, _ bytes: [UInt8]) -> MockHTTPResponse {
    MockHTTPResponse(
      status: status, headers: [("content-type", "text/plain; charset=utf-8")],
      body: .streaming { writer in try writer.write(bytes) })
  }

  /// An empty response (unknown or terminated SID: `400`).
  private static func empty(_ status: Int) -> MockHTTPResponse {
    MockHTTPResponse(status: status)
  }
}
