import FirestoreWire
import Foundation

/// Writes of one commit that listeners already show: pending (queued) until the server
/// applies them, then acknowledged until every listener's server view has caught up with
/// them.
struct MutationBatch: Sendable {
  /// The commit's outcome for one write.
  struct Acknowledgement: Sendable {
    /// The document's update time after the write (`nil` for a delete).
    var updateTime: Timestamp?
    /// The server's transform results.
    var transformResults: [Value]
  }

  let id: Int
  let writes: [Write]
  /// Who made the batch: it is sent only with that user's tokens. `nil` until the store
  /// learns who its provider's tokens stand for.
  var user: TokenUser?
  /// When the writes were made: pending server timestamps show it as their estimate.
  let localWriteTime: Timestamp
  /// Whether applying the writes twice has the effect of applying them once, so that an
  /// attempt whose outcome is unknown may be repeated.
  let isIdempotent: Bool
  /// The commit request body (`{"writes": […]}`), encoded once for every attempt; empty for
  /// a batch that is not sent (a committed transaction's outcome), and once the server has
  /// accepted the batch, which is never sent again.
  var commitBody: Data
  /// Per write, what its increments start from while the batch is pending (see
  /// ``LocalWriteApplier/incrementBases(of:on:)``); empty when no write increments.
  let incrementBases: [[String: Value]]
  /// The commit time, once the server has accepted the batch.
  var commitTime: Timestamp?
  /// One per write, once the server has accepted the batch.
  var acknowledgements: [Acknowledgement]?

  init(
    id: Int, writes: [Write], localWriteTime: Timestamp, commitBody: Data = Data(), incrementBases: [[String: Value]] = [],
    user: TokenUser? = nil
  ) {
    self.id = id
    self.user = user
    self.writes = writes
    self.localWriteTime = localWriteTime
    self.commitBody = commitBody
    self.incrementBases = incrementBases
    isIdempotent = WriteBuilder.isIdempotent(writes)
    if writes.count == 1 {
      // A literal's set is made in code specialized for `String`; `init(minimumCapacity:)`
      // runs generic and looks its storage type up in the runtime's tables on every call.
      documentNames = [writes[0].documentName]
    } else {
      var names = Set<String>(minimumCapacity: writes.count)
      for write in writes { names.insert(write.documentName) }
      documentNames = names
    }
  }

  /// Whether the server has accepted the batch.
  var isAcknowledged: Bool { commitTime != nil }

  /// The document names the batch writes: made once, since the store asks for them at
  /// each step of the batch's life.
  let documentNames: Set<String>

  /// The document after write `index` of this batch, applied to `base`.
  func apply(_ index: Int, to base: Document?) -> Document? {
    LocalWriteApplier.apply(
      writes[index], to: base, localWriteTime: localWriteTime, transformResults: acknowledgements?[index].transformResults,
      incrementBases: index < incrementBases.count ? incrementBases[index] : [:])
  }
}
