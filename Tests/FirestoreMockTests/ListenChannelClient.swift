import FirestoreWire
import Foundation

@testable import FirestoreMock

/// A bare WebChannel Listen client over ``RawHTTPClient`` for the mock's channel tests: it
/// keeps SID, RID, map id and AID as the protocol document prescribes and reads the
/// back channel frame by frame. Its calls that reach the server are `async`: they wait on
/// ``RawHTTPClient``, off the test's thread.
final class ListenChannelClient {
  /// How the back channel ended.
  enum BackChannelEnd: Error, Equatable {
    /// The chunked body completed.
    case clean
    /// The connection broke mid-body.
    case broken
  }

  let port: Int
  let database: String
  var sessionID = ""
  var requestID = 500
  var mapID = 0
  /// The last array id processed.
  var lastArrayID = 0
  private var backChannel: RawHTTPClient?
  private var parser = WebChannelFrameParser()
  private var pending: [WebChannelMessage.Entry] = []

  init(port: Int, project: String = "demo") {
    self.port = port
    self.database = "projects/\(project)/databases/(default)"
  }

  var documentsRoot: String { database + "/documents" }

  /// Sends one raw request on a new connection and reads the whole response.
  func request(_ method: String, _ params: [(String, String)], body: String = "") async throws -> RawHTTPClient.Response {
    let client = try await RawHTTPClient(port: port)
    let path = WebChannelURL.path + "?" + WebChannelURL.query(params)
    var text = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
    if method == "POST" {
      text += "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.utf8.count)\r\n"
    }
    try await client.send(text + "\r\n" + body)
    return try await client.readResponse()
  }

  /// The handshake; returns the `c` message.
  func handshake(_ messages: [JSONValue] = []) async throws -> WebChannelMessage {
    let body = WebChannelForwardBody.encode(messages: messages, offset: mapID)
    mapID += messages.count
    let response = try await request("POST", WebChannelURL.handshake(database: database, requestID: requestID, zx: "zx"), body: body)
    var parser = WebChannelFrameParser()
    let frames = try parser.append(response.body)
    guard response.status == 200, frames.count == 1 else { throw RawHTTPClient.ClientError.malformed(response.text) }
    let entries = try WebChannelMessage.parse(frame: frames[0])
    guard entries.count == 1, entries[0].id == 0, case .created(let sid, _, _, _, _) = entries[0].message else {
      throw RawHTTPClient.ClientError.malformed(response.text)
    }
    sessionID = sid
    return entries[0].message
  }

  /// A forward POST carrying `messages`; returns the status and the reply (when 200).
  @discardableResult
  func send(_ messages: [JSONValue]) async throws -> (Int, WebChannelForwardReply?) {
    requestID += 1
    let body = WebChannelForwardBody.encode(messages: messages, offset: mapID)
    mapID += messages.count
    let params = WebChannelURL.forward(
      database: database, sessionID: sessionID, requestID: requestID, lastArrayID: lastArrayID, zx: "zx")
    let response = try await request("POST", params, body: body)
    guard response.status == 200 else { return (response.status, nil) }
    var parser = WebChannelFrameParser()
    let frames = try parser.append(response.body)
    return (200, try frames.first.map { try WebChannelForwardReply(json: $0) })
  }

  /// Opens a back channel with `AID` = ``lastArrayID``; returns the status.
  @discardableResult
  func openBackChannel(timeoutSeconds: Int = RawHTTPClient.defaultTimeoutSeconds) async throws -> Int {
    let client = try await RawHTTPClient(port: port, timeoutSeconds: timeoutSeconds)
    let params = WebChannelURL.backChannel(database: database, sessionID: sessionID, lastArrayID: lastArrayID, zx: "zx")
    try await client.send("GET \(WebChannelURL.path)?\(WebChannelURL.query(params)) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    let head = try await client.readHead()
    guard head.status == 200 else { return head.status }
    backChannel = client
    parser = WebChannelFrameParser()
    pending = []
    return head.status
  }

  /// Hands over the open back channel's connection and forgets it, so that a test can open
  /// another one in the same session and still read the first.
  func detachBackChannel() -> RawHTTPClient? {
    defer { backChannel = nil }
    return backChannel
  }

  /// The next array above ``lastArrayID`` (which it advances).
  /// - Throws: ``BackChannelEnd`` when the back channel ends first.
  func nextEntry() async throws -> WebChannelMessage.Entry {
    while true {
      while !pending.isEmpty {
        let entry = pending.removeFirst()
        if entry.id > lastArrayID {
          lastArrayID = entry.id
          return entry
        }
      }
      guard let client = backChannel else { throw BackChannelEnd.clean }
      let chunk: [UInt8]?
      do {
        chunk = try await client.readChunk()
      } catch RawHTTPClient.ClientError.closed {
        backChannel = nil
        throw BackChannelEnd.broken
      }
      guard let chunk else {
        backChannel = nil
        throw BackChannelEnd.clean
      }
      for frame in try parser.append(chunk) { pending += try WebChannelMessage.parse(frame: frame) }
    }
  }

  /// The next ListenResponse, skipping `noop`s.
  func next() async throws -> ListenResponse {
    while true {
      let entry = try await nextEntry()
      switch entry.message {
      case .data(let json): return try ListenResponse(json: json)
      case .noop: continue
      default: throw RawHTTPClient.ClientError.malformed("unexpected \(entry.message)")
      }
    }
  }

  /// The next `count` ListenResponses.
  func next(_ count: Int) async throws -> [ListenResponse] {
    var responses: [ListenResponse] = []
    for _ in 0..<count { responses.append(try await next()) }
    return responses
  }

  /// The next raw data message (for stream errors, which are not ListenResponses).
  func nextData() async throws -> JSONValue {
    while true {
      if case .data(let json) = try await nextEntry().message { return json }
    }
  }

  /// Terminates the session; returns the status.
  func terminate() async throws -> Int {
    requestID += 1
    let params = WebChannelURL.terminate(database: database, sessionID: sessionID, requestID: requestID, zx: "zx")
    return try await request("GET", params).status
  }

  // MARK: - Messages

  /// `{"database":…,"addTarget":{query on collection}}`, with an optional `where` (JSON text).
  func addQuery(_ targetID: Int32, collection: String, where filter: String? = nil, resumeToken: Data? = nil) throws -> JSONValue {
    let text = #"{"from":[{"collectionId":"\#(collection)"}]"# + (filter.map { #","where":\#($0)"# } ?? "") + "}"
    let query = try StructuredQuery(json: JSONParser.parse(text))
    let target = Target(targetID: targetID, kind: .query(parent: documentsRoot, query), resumeToken: resumeToken)
    return ListenRequest(database: database, change: .addTarget(target)).json
  }

  /// `{"database":…,"addTarget":{"documents":…}}` for paths relative to the documents root.
  func addDocuments(_ targetID: Int32, _ paths: [String]) -> JSONValue {
    let target = Target(targetID: targetID, kind: .documents(paths.map { documentsRoot + "/" + $0 }))
    return ListenRequest(database: database, change: .addTarget(target)).json
  }

  /// `{"database":…,"removeTarget":id}`.
  func removeTarget(_ targetID: Int32) -> JSONValue {
    ListenRequest(database: database, change: .removeTarget(targetID)).json
  }

  /// Commits writes through REST (`{"update":…}` / `{"delete":…}` JSON, without the root).
  func commit(_ writes: [String]) async throws {
    let client = try await RawHTTPClient(port: port)
    let body = #"{"writes":[\#(writes.joined(separator: ","))]}"#
    try await client.send(
      "POST /v1/\(database)/documents:commit HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
    let response = try await client.readResponse()
    guard response.status == 200 else { throw RawHTTPClient.ClientError.malformed(response.text) }
  }

  /// An `update` write of `{"pop": pop}` to `path`.
  func set(_ path: String, pop: Int) -> String {
    #"{"update":{"name":"\#(documentsRoot)/\#(path)","fields":{"pop":{"integerValue":"\#(pop)"}}}}"#
  }

  /// A `delete` write of `path`.
  func delete(_ path: String) -> String {
    #"{"delete":"\#(documentsRoot)/\#(path)"}"#
  }
}
