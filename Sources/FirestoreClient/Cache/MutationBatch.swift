import FirestoreWire

/// Writes of one commit that listeners already show: pending until the commit answers, then
/// acknowledged until every listener's server view has caught up with them.
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
  /// When the writes were made: pending server timestamps show it as their estimate.
  let localWriteTime: Timestamp
  /// The commit time, once the server has accepted the batch.
  var commitTime: Timestamp?
  /// One per write, once the server has accepted the batch.
  var acknowledgements: [Acknowledgement]?

  /// Whether the server has accepted the batch.
  var isAcknowledged: Bool { commitTime != nil }

  /// The document names the batch writes.
  var documentNames: Set<String> { Set(writes.map(\.documentName)) }

  /// The document after write `index` of this batch, applied to `base`.
  func apply(_ index: Int, to base: Document?) -> Document? {
    LocalWriteApplier.apply(
      writes[index], to: base, localWriteTime: localWriteTime, transformResults: acknowledgements?[index].transformResults)
  }
}
