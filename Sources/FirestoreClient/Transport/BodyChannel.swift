import FirestorePlatform
import FirestoreWire
import Foundation

/// The bounded buffer between a transfer that produces a response body and the task that
/// reads it.
///
/// The producer offers bytes as they arrive; past ``highWater`` buffered bytes it is told
/// to pause, and once the reader has taken the buffer down to ``lowWater`` the channel asks
/// it to go on. When the last ``Reader`` goes away before the end, or the reading task is
/// cancelled, the channel asks the producer to abort.
final class BodyChannel: Sendable {
  /// Buffered bytes past which the producer pauses, unless the channel is made with more.
  static let highWater = 512 << 10
  /// Buffered bytes past which the producer pauses.
  let highWater: Int
  /// Buffered bytes at which a paused producer resumes: a quarter of ``highWater``.
  let lowWater: Int

  /// Makes a channel that buffers up to `highWater` bytes before the producer pauses.
  init(highWater: Int = BodyChannel.highWater) {
    self.highWater = highWater
    lowWater = highWater / 4
  }

  /// What feeds the channel, asked to resume a paused transfer, abort one, or trade its
  /// deadline for an idle one. Never called under the channel's lock. The channel holds it
  /// until the body ends.
  protocol Producer: AnyObject, Sendable {
    /// The reader took enough: a paused transfer goes on.
    func resumeTransfer()
    /// The reader went away or was cancelled: the transfer stops with `error`.
    func abortTransfer(_ error: FirestoreError)
    /// The transfer's deadline gives way to an idle timeout of `idle`.
    func keepIdleDeadline(_ idle: Duration)
  }

  private struct State {
    var chunks: [Data] = []
    var first = 0
    var buffered = 0
    var paused = false
    var end: Result<Void, any Error>?
    var waiter: CheckedContinuation<Data?, any Error>?
    var producer: (any Producer)?
    /// The room reserved for the body (``expect(_:)``) less what was offered: what a new
    /// buffered chunk makes room for.
    var expected = 0
    /// The bytes the last buffered chunk has room for without growing.
    var room = 0
  }

  private let state = Locked(State())

  /// Whether the producer was told to pause and has not been resumed yet (for tests: a
  /// reader that falls behind waits for this, not for time).
  var isPaused: Bool { state.withLock { $0.paused } }

  /// Whether the body ended without error and every byte of it is buffered, none read yet
  /// (for tests).
  var holdsWholeBody: Bool {
    state.withLock { s in
      guard case .success = s.end else { return false }
      return s.first == 0
    }
  }

  /// The whole body, taken out of the channel, when it ended without error and none of it
  /// was read; `nil` otherwise, and the channel is left as it was.
  func takeWholeBody() -> Data? {
    state.withLock { s -> Data? in
      guard case .success = s.end, s.first == 0, s.waiter == nil else { return nil }
      defer {
        s.chunks = []
        s.buffered = 0
      }
      guard s.chunks.count > 1 else { return s.chunks.first ?? Data() }
      var whole = Data(capacity: s.buffered)
      for chunk in s.chunks { whole.append(chunk) }
      return whole
    }
  }

  /// Connects the producer; until then resume and abort requests are dropped.
  func connect(_ producer: any Producer) {
    state.withLock { $0.producer = producer }
  }

  // MARK: - Producer side

  /// The producer learned how many bytes to reserve for the body
  /// (``HTTPResponse/reservation(announcedIn:limit:)``): the bytes it buffers go into one
  /// piece that large, so that a reader gathering the whole body takes it without copying
  /// it again.
  func expect(_ bytes: Int) {
    state.withLock { $0.expected = max(0, bytes) }
  }

  /// Offers bytes, copied; `false` means the buffer is full: the producer must pause and
  /// offer the same bytes again once resumed.
  ///
  /// While nobody waits, bytes join the last buffered chunk when it has room for them: a
  /// reply of announced length that comes in many reads is buffered as one piece, and no
  /// chunk ever grows by copying.
  func offer(_ bytes: UnsafeRawBufferPointer) -> Bool {
    enum Outcome {
      case handOff(CheckedContinuation<Data?, any Error>)
      case buffered
      case full
    }
    let outcome: Outcome = state.withLock { s in
      if s.end != nil { return .buffered }  // over already: nothing reads it
      if let waiter = s.waiter {
        s.waiter = nil
        s.expected = max(0, s.expected - bytes.count)
        return .handOff(waiter)
      }
      if s.buffered >= highWater {
        s.paused = true
        return .full
      }
      if s.chunks.count > s.first, bytes.count <= s.room {
        Self.append(bytes, to: &s.chunks[s.chunks.count - 1])
        s.room -= bytes.count
      } else {
        let capacity = max(bytes.count, s.expected)
        var chunk = Data(capacity: capacity)
        Self.append(bytes, to: &chunk)
        s.chunks.append(chunk)
        s.room = capacity - bytes.count
      }
      s.buffered += bytes.count
      s.expected = max(0, s.expected - bytes.count)
      return .buffered
    }
    switch outcome {
    case .handOff(let waiter):
      var chunk = Data(capacity: bytes.count)
      Self.append(bytes, to: &chunk)
      waiter.resume(returning: chunk)
      return true
    case .buffered: return true
    case .full: return false
    }
  }

  /// Appends `bytes` to `chunk` through `Data`'s pointer copy, not its generic sequence
  /// append, which costs more than the copy for the small replies most calls get.
  private static func append(_ bytes: UnsafeRawBufferPointer, to chunk: inout Data) {
    guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
    chunk.append(base.assumingMemoryBound(to: UInt8.self), count: bytes.count)
  }

  /// Ends the body, with an error or without.
  func finish(_ result: Result<Void, any Error> = .success(())) {
    let waiter: CheckedContinuation<Data?, any Error>? = state.withLock { s in
      guard s.end == nil else { return nil }
      s.end = result
      s.producer = nil
      defer { s.waiter = nil }
      return s.chunks.count > s.first ? nil : s.waiter
    }
    switch result {
    case .success: waiter?.resume(returning: nil)
    case .failure(let error): waiter?.resume(throwing: error)
    }
  }

  // MARK: - Reader side

  /// The next chunk, `nil` at the end; cancelling the calling task aborts the transfer.
  func next() async throws -> Data? {
    // What is here already is taken without a continuation (a reply read whole is here
    // before its reader asks); a cancelled reader goes the waiting way, which aborts.
    if !Task.isCancelled {
      let (ready, resume) = state.withLock { s in take(&s) }
      resume?.resumeTransfer()
      if let ready { return try ready.get() }
    }
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Data?, any Error>) in
        let (result, resume) = state.withLock { s in
          let taken = take(&s)
          if taken.result == nil { s.waiter = continuation }
          return taken
        }
        resume?.resumeTransfer()
        if let result { continuation.resume(with: result) }
      }
    } onCancel: {
      abort(FirestoreError(.cancelled, "the request was cancelled"))
    }
  }

  /// The next buffered chunk, or the end once every chunk was taken, with the producer to
  /// resume now that the buffer is lower; no result while the reader must wait for more.
  private func take(_ s: inout State) -> (result: Result<Data?, any Error>?, resume: (any Producer)?) {
    if s.first < s.chunks.count {
      let chunk = s.chunks[s.first]
      // Let go of it here: a reader that gathers the body holds it once, not twice.
      s.chunks[s.first] = Data()
      s.first += 1
      s.buffered -= chunk.count
      if s.first == s.chunks.count {
        s.chunks.removeAll(keepingCapacity: true)
        s.first = 0
      }
      return (.success(chunk), takeResume(&s))
    }
    if let end = s.end { return (end.map { nil }, nil) }
    return (nil, takeResume(&s))
  }

  /// The producer to resume, when it is paused and the buffer is down to ``lowWater``.
  private func takeResume(_ s: inout State) -> (any Producer)? {
    guard s.paused, s.buffered <= lowWater else { return nil }
    s.paused = false
    return s.producer
  }

  /// Ends the body with `error` and has the producer abort the transfer.
  func abort(_ error: @autoclosure () -> FirestoreError) {
    let (open, producer) = state.withLock { s -> (Bool, (any Producer)?) in
      guard s.end == nil else { return (false, nil) }
      return (true, s.producer)
    }
    // A body read to its end (nearly every one) needs no error made.
    guard open else { return }
    let error = error()
    finish(.failure(error))
    producer?.abortTransfer(error)
  }

  /// Has the producer trade its deadline for an idle one of `idle`.
  func keepIdleDeadline(_ idle: Duration) {
    state.withLock { $0.producer }?.keepIdleDeadline(idle)
  }

  /// A reader's hold on the channel: when the last one goes, a body not read to its end is
  /// aborted, so that its transfer does not stay paused forever.
  final class Reader: Sendable {
    let channel: BodyChannel

    init(_ channel: BodyChannel) { self.channel = channel }

    deinit {
      channel.abort(FirestoreError(.cancelled, "the response body was dropped before its end"))
    }
  }
}
