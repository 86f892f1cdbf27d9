import FirestoreWire

/// The state of one WebChannel Listen session (one gRPC `Listen` stream).
struct ListenSession: Sendable {
  /// The session id (`SID`).
  let id: String
  /// `projects/{p}/databases/{d}`, from the handshake's `database` parameter.
  let database: String
  /// The id the next back-channel array gets (0 was the handshake's `c` array).
  var nextArrayID = 1
  /// Arrays not yet acknowledged by an `AID`, in id order; a new back channel re-sends
  /// those above its `AID`.
  var queue: [WebChannelMessage.Entry] = []
  /// The map id of the next ListenRequest to process; lower ones are duplicates.
  var nextMapID = 0
  /// ListenRequests that arrived ahead of a gap in map ids, by map id.
  var held: [Int: JSONValue] = [:]
  /// The live targets by id.
  var targets: [Int32: ListenTargetState] = [:]
  /// Bumped by every back-channel GET: a back channel whose generation is older ends.
  var backChannelGeneration = 0
  /// Whether a back channel is currently streaming.
  var backChannelOpen = false

  /// The id of the last array queued (0 when only `c` was sent).
  var lastArrayID: Int { nextArrayID - 1 }

  init(id: String, database: String) {
    self.id = id
    self.database = database
  }

  /// Queues one array.
  mutating func enqueue(_ message: WebChannelMessage) {
    queue.append(WebChannelMessage.Entry(id: nextArrayID, message: message))
    nextArrayID += 1
  }

  /// Queues a ListenResponse.
  mutating func enqueue(_ response: ListenResponse) {
    enqueue(.data(response.json))
  }

  /// Forgets arrays the client has processed.
  mutating func acknowledge(_ arrayID: Int) {
    queue.removeAll { $0.id <= arrayID }
  }
}
