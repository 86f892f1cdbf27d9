import FirestorePlatform
import FirestoreWire

/// The writes a batch or transaction has been given, and the first one that was invalid.
///
/// As in the Apple SDK, a write with bad data does not throw where it is added: it is kept
/// as an error here and reported by the commit, which then sends nothing. A write added
/// after the writes were taken (a batch committed, a transaction's body returned) can go
/// nowhere: it is dropped and logged, where the Apple SDK raises an exception.
///
/// A batch's writes are also written out as request text while more are added, a part of
/// ``partSize`` at a time on another thread: a large batch's body is then mostly made by
/// the time it is committed, instead of after the last write on the caller's own.
final class WriteRecord: Sendable {
  private struct State {
    var writes: [Write] = []
    var error: FirestoreError?
    var taken = false
    /// The text of the first `parts.count * partSize` writes, a part a task.
    var parts: [Task<[UInt8], Never>] = []
  }

  /// The writes in one part of the text written ahead: enough that starting its task is
  /// a small share of writing it.
  static let partSize = 64

  /// The database the writes must belong to.
  let firestore: Firestore
  /// Whether the writes' text is written ahead (for a commit that sends it).
  private let writesAhead: Bool
  private let state = Locked(State())

  init(firestore: Firestore, writesAhead: Bool = false) {
    self.firestore = firestore
    self.writesAhead = writesAhead
  }

  /// Records the write `build` makes for `document`, or the error that stops it:
  /// `refusal` when the owner takes no writes, a document of another instance, or what
  /// `build` throws. `owner` names the batch or transaction in errors.
  func add(
    _ document: DocumentReference, owner: String, refusal: FirestoreError? = nil, _ build: () throws(FirestoreError) -> Write
  ) {
    let write: Write
    do throws(FirestoreError) {
      if let refusal { throw refusal }
      if document.firestore !== firestore {
        throw .invalidArgument("document \(document.path) belongs to another Firestore instance than this \(owner)")
      }
      write = try build()
    } catch {
      fail(error)
      return
    }
    let dropped = state.withLock { s -> Bool in
      guard !s.taken else { return true }
      s.writes.append(write)
      if writesAhead, s.error == nil, !s.taken, s.writes.count % Self.partSize == 0 {
        // A copy: a slice would share the writes' storage, and the next write appended
        // would copy all of them.
        let part = Array(s.writes[(s.writes.count - Self.partSize)...])
        // A part no commit will use (its form cannot wait for it) is skipped.
        let text = firestore.batchText
        s.parts.append(Task { Task.isCancelled ? [] : text.encodedWrites(part) })
      }
      return false
    }
    if dropped {
      firestore.configuration.log(
        "Firestore: a write to \(document.path) was added to a \(owner) already committed; it was not written (use a new one)")
    }
  }

  /// Records `error` as one that stops the writes (unless an earlier one did): misuse found
  /// outside a write, which the caller may catch but the commit must not miss.
  func fail(_ error: FirestoreError) {
    state.withLock { s in
      if s.error == nil { s.error = error }
    }
  }

  /// The writes recorded so far.
  var writes: [Write] { state.withLock { $0.writes } }

  /// The first invalid write's error, if any.
  var error: FirestoreError? { state.withLock { $0.error } }

  /// The writes, the first time they are asked for; the first recorded error instead, or
  /// `alreadyTaken` on a later call. Their text written ahead is not used.
  func take(alreadyTaken: FirestoreError) -> Result<[Write], FirestoreError> {
    let (writes, parts) = takeWithParts(alreadyTaken: alreadyTaken)
    for part in parts { part.cancel() }
    return writes
  }

  /// ``take(alreadyTaken:)``, with the writes' request text as
  /// ``BatchTextBuffers/encodedWrites(_:)`` writes it, in order: the parts written ahead,
  /// awaited, and the rest written now.
  func takeWritten(alreadyTaken: FirestoreError) async -> Result<(writes: [Write], text: [[UInt8]]), FirestoreError> {
    let (taken, parts) = takeWithParts(alreadyTaken: alreadyTaken)
    guard case .success(let writes) = taken else {
      for part in parts { part.cancel() }
      return taken.map { ($0, []) }
    }
    var text: [[UInt8]] = []
    text.reserveCapacity(parts.count + 1)
    for part in parts { text.append(await part.value) }
    let rest = writes[(parts.count * Self.partSize)...]
    if !rest.isEmpty { text.append(firestore.batchText.encodedWrites(rest)) }
    return .success((writes, text))
  }

  /// Marks the writes taken; returns them (or why not) and hands over the parts written
  /// ahead, which the record no longer holds.
  private func takeWithParts(alreadyTaken: FirestoreError) -> (Result<[Write], FirestoreError>, [Task<[UInt8], Never>]) {
    state.withLock { s in
      defer { s.parts = [] }
      if let error = s.error { return (.failure(error), s.parts) }
      if s.taken { return (.failure(alreadyTaken), s.parts) }
      s.taken = true
      return (.success(s.writes), s.parts)
    }
  }
}
