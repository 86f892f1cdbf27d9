import FirestoreWire
import Foundation

/// The live WebChannel Listen sessions of a mock server, their targets and their queued
/// back-channel arrays, behind one lock.
///
/// Forward POSTs add and remove targets; every commit (and reset) of the ``MockStore``
/// re-evaluates the targets of the sessions on that database and queues the differences
/// (see ``ListenSessionTable/refresh(_:at:)``); back-channel GETs block on the condition
/// variable until arrays are queued and stream them as frames.
///
/// Lock order: this table's lock may be held while calling the store, never the reverse
/// (the store notifies commits after releasing its own lock).
final class ListenSessionTable: @unchecked Sendable {
  // @unchecked: every stored var below is only touched with `condition` held.
  let condition = NSCondition()
  var sessions: [String: ListenSession] = [:]
  private var stopped = false
  /// When ``cutBackChannels()`` last ran: a back channel whose request arrived before is cut.
  private var cutAt: ContinuousClock.Instant?
  /// When ``endBackChannels()`` last ran: a back channel whose request arrived before ends.
  private var endAt: ContinuousClock.Instant?

  /// The data the targets read.
  let store: MockStore
  /// A back channel ends at its first flush after this long (the emulator's 45 s), on the
  /// store's ``MockStore/clock``.
  let backChannelWait: Duration
  /// The longest a ``Fault/stallAfterFrames(_:)`` holds a back channel.
  let stallLimit: Duration = .seconds(300)
  /// How often blocked back channels wake to check for stop and replacement.
  private let pollInterval: TimeInterval = 0.2

  init(store: MockStore, backChannelWait: Duration) {
    self.store = store
    self.backChannelWait = backChannelWait
    store.addCommitObserver { [weak self] database, changedPaths in self?.databaseChanged(database, changedPaths: changedPaths) }
  }

  /// The number of live sessions.
  var count: Int {
    condition.lock()
    defer { condition.unlock() }
    return sessions.count
  }

  /// Cuts every open back channel now, as a dropped connection would: no final chunk.
  /// Sessions survive, so clients reopen the back channel (or start anew) and resume.
  ///
  /// A back channel request that arrived before the call but is not streaming yet is cut
  /// as soon as it starts: whichever thread serves it, it is one the call meant.
  func cutBackChannels() {
    condition.lock()
    cutAt = .now
    condition.broadcast()
    condition.unlock()
  }

  /// Ends every open back channel now, cleanly (the last chunk is sent), as the server
  /// does after ``backChannelWait``; sessions survive and clients reopen the back channel.
  /// As with ``cutBackChannels()``, one whose request arrived before the call ends too.
  func endBackChannels() {
    condition.lock()
    endAt = .now
    condition.broadcast()
    condition.unlock()
  }

  /// Ends every session and wakes every back channel, which then completes; later
  /// requests get 400. Call before stopping the HTTP server.
  func stop() {
    condition.lock()
    stopped = true
    sessions.removeAll()
    condition.broadcast()
    condition.unlock()
  }

  // MARK: - Sessions

  /// Creates a session on `database` and processes the handshake's messages.
  func create(database: String, offset: Int, messages: [JSONValue]) -> String? {
    var bytes = [UInt8](repeating: 0, count: 16)
    for i in bytes.indices { bytes[i] = UInt8.random(in: 0...255) }
    let id = Data(bytes).base64EncodedString()
    condition.lock()
    defer { condition.unlock() }
    if stopped { return nil }
    var session = ListenSession(id: id, database: database)
    receive(&session, offset: offset, messages: messages)
    sessions[id] = session
    condition.broadcast()
    return id
  }

  /// Handles a forward POST: acknowledges `acknowledged` and, when `deliver`, processes
  /// the messages. `nil` when the session is unknown.
  func forward(_ id: String, acknowledged: Int?, offset: Int, messages: [JSONValue], deliver: Bool) -> WebChannelForwardReply? {
    condition.lock()
    defer { condition.unlock() }
    guard var session = sessions[id] else { return nil }
    if let acknowledged { session.acknowledge(acknowledged) }
    let reply = WebChannelForwardReply(backChannelPresent: session.backChannelOpen, lastArrayID: session.lastArrayID)
    if deliver { receive(&session, offset: offset, messages: messages) }
    sessions[id] = session
    condition.broadcast()
    return reply
  }

  /// Ends a session (terminate, or an injected fault); `false` when it is unknown.
  @discardableResult
  func terminate(_ id: String) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    let removed = sessions.removeValue(forKey: id) != nil
    condition.broadcast()
    return removed
  }

  /// Registers a new back channel for a session: acknowledges `acknowledged`, ends any
  /// older back channel and queues a `noop` (as the emulator does on every open).
  /// Returns the back channel's generation, or `nil` when the session is unknown.
  func openBackChannel(_ id: String, acknowledged: Int?) -> Int? {
    condition.lock()
    defer { condition.unlock() }
    guard var session = sessions[id] else { return nil }
    if let acknowledged { session.acknowledge(acknowledged) }
    session.backChannelGeneration += 1
    session.enqueue(.noop)
    sessions[id] = session
    condition.broadcast()
    return session.backChannelGeneration
  }

  /// Streams a back channel: writes every queued array above `cursor` as frames as they
  /// come, until the session ends, a newer back channel replaces this one, the server
  /// stops, ``endBackChannels()`` runs after `arrival` (the request's), or the first flush
  /// after ``backChannelWait``. Applies the Listen faults.
  ///
  /// - Throws: when the client went away, to cut the connection for
  ///   ``Fault/dropAfterFrames(_:)``, or when ``cutBackChannels()`` runs after `arrival`.
  func streamBackChannel(
    _ id: String, generation: Int, cursor start: Int, arrival: ContinuousClock.Instant, faults: [Fault], writer: any MockChunkWriter
  ) throws {
    let deadline = store.clock.now + backChannelWait
    var cursor = start
    var frames = 0
    condition.lock()
    setOpen(id, generation: generation, true)
    defer {
      setOpen(id, generation: generation, false)
      condition.unlock()
    }
    while true {
      if try applyFrameFault(faults, frames: frames, id: id, generation: generation) { return }
      if let cutAt, arrival <= cutAt { throw ListenChannelDropped() }
      if let endAt, arrival <= endAt { return }
      guard !stopped, let session = sessions[id], session.backChannelGeneration == generation else { return }
      let batch = session.queue.filter { $0.id > cursor }
      if batch.isEmpty {
        _ = condition.wait(until: Date().addingTimeInterval(pollInterval))
        continue
      }
      cursor = batch[batch.count - 1].id
      // Decided when the batch is taken, not after the write: the flush of the first batch
      // taken after the deadline is the last, however long the write took to return.
      let last = store.clock.now >= deadline
      condition.unlock()
      defer { condition.lock() }
      try writer.write(WebChannelFrameWriter.frame(batch))
      frames += 1
      if last { return }
    }
  }

  private func setOpen(_ id: String, generation: Int, _ open: Bool) {
    guard sessions[id]?.backChannelGeneration == generation else { return }
    sessions[id]?.backChannelOpen = open
  }

  /// Acts on a frame-counting fault once `frames` frames were written; `true` ends the
  /// back channel cleanly. Called with the lock held.
  private func applyFrameFault(_ faults: [Fault], frames: Int, id: String, generation: Int) throws -> Bool {
    for fault in faults {
      switch fault {
      case .dropAfterFrames(let n) where frames >= n:
        throw ListenChannelDropped()
      case .closeSessionAfterFrames(let n) where frames >= n:
        sessions[id] = nil
        condition.broadcast()
        return true
      case .stallAfterFrames(let n) where frames >= n:
        let limit = ContinuousClock.now + stallLimit
        while !stopped, sessions[id]?.backChannelGeneration == generation, ContinuousClock.now < limit {
          _ = condition.wait(until: Date().addingTimeInterval(pollInterval))
        }
        return true
      default:
        continue
      }
    }
    return false
  }

  // MARK: - Requests

  /// Processes forward messages in map-id order: duplicates are ignored, messages after a
  /// gap are held until it fills.
  private func receive(_ session: inout ListenSession, offset: Int, messages: [JSONValue]) {
    for (index, message) in messages.enumerated() where offset + index >= session.nextMapID {
      session.held[offset + index] = message
    }
    while let message = session.held.removeValue(forKey: session.nextMapID) {
      session.nextMapID += 1
      process(&session, message)
    }
  }

  private func process(_ session: inout ListenSession, _ message: JSONValue) {
    let request: ListenRequest
    do {
      request = try ListenRequest(json: message)
    } catch {
      session.enqueue(.data(Self.streamError(.invalidArgument, message: "Invalid ListenRequest: \(error)")))
      return
    }
    switch request.change {
    case .addTarget(let target):
      add(target, to: &session)
    case .removeTarget(let id):
      if session.targets.removeValue(forKey: id) != nil {
        session.enqueue(.targetChange(.init(kind: .remove, targetIDs: [id])))
      }
    }
  }

  /// `{"error":{"message":…,"status":…}}`: a stream error, as the emulator sends it.
  static func streamError(_ code: RPCCode, message: String) -> JSONValue {
    .object([("error", .object([("message", .string(message)), ("status", .string(code.statusName))]))])
  }

  // MARK: - Commits

  /// Re-evaluates the targets of every session on `database` that read any of
  /// `changedPaths` (every target when `nil`) and queues the changes, each session's
  /// followed by a global NO_CHANGE. A target that reads none of them cannot have changed,
  /// and evaluating it would scan the store under this table's lock on every commit.
  func databaseChanged(_ database: String, changedPaths: Set<String>?) {
    condition.lock()
    defer { condition.unlock() }
    let readTime = store.readTime()
    for id in sessions.keys {
      guard var session = sessions[id], session.database == database, !session.targets.isEmpty else { continue }
      if refresh(&session, at: readTime, reading: changedPaths) { session.enqueue(Self.globalChange(at: readTime)) }
      sessions[id] = session
    }
    condition.broadcast()
  }

  /// The global consistency point at `readTime`: NO_CHANGE with no target ids.
  static func globalChange(at readTime: Timestamp) -> ListenResponse {
    .targetChange(.init(kind: .noChange, resumeToken: ListenResumeToken.encode(readTime), readTime: readTime))
  }
}
