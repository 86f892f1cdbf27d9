import FirestorePlatform
import FirestoreWire

/// The writes a batch or transaction has been given, and the first one that was invalid.
///
/// As in the Apple SDK, a write with bad data does not throw where it is added: it is kept
/// as an error here and reported by the commit, which then sends nothing.
final class WriteRecord: Sendable {
  private struct State {
    var writes: [Write] = []
    var error: FirestoreError?
    var taken = false
  }

  /// The database the writes must belong to.
  let firestore: Firestore
  private let state = Locked(State())

  init(firestore: Firestore) { self.firestore = firestore }

  /// Records the write `build` makes for `document`, or the error that stops it:
  /// `refusal` when the owner takes no writes, a document of another instance, or what
  /// `build` throws. `owner` names the batch or transaction in errors.
  func add(
    _ document: DocumentReference, owner: String, refusal: FirestoreError? = nil, _ build: () throws(FirestoreError) -> Write
  ) {
    let write: Result<Write, FirestoreError>
    if let refusal {
      write = .failure(refusal)
    } else if document.firestore !== firestore {
      write = .failure(.invalidArgument("document \(document.path) belongs to another Firestore instance than this \(owner)"))
    } else {
      do throws(FirestoreError) { write = .success(try build()) } catch { write = .failure(error) }
    }
    state.withLock { s in
      switch write {
      case .success(let w): s.writes.append(w)
      case .failure(let e): if s.error == nil { s.error = e }
      }
    }
  }

  /// The writes recorded so far.
  var writes: [Write] { state.withLock { $0.writes } }

  /// The first invalid write's error, if any.
  var error: FirestoreError? { state.withLock { $0.error } }

  /// The writes, the first time they are asked for; the first recorded error instead, or
  /// `alreadyTaken` on a later call.
  func take(alreadyTaken: FirestoreError) -> Result<[Write], FirestoreError> {
    state.withLock { s in
      if let error = s.error { return .failure(error) }
      if s.taken { return .failure(alreadyTaken) }
      s.taken = true
      return .success(s.writes)
    }
  }
}
