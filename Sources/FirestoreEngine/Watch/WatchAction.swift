import FirestoreWire

/// What the client must do after ``WatchState/apply(_:)``.
public enum WatchAction: Sendable, Equatable {
  /// Deliver a snapshot to the target's listener. Raised only at a global consistent point
  /// (a `NO_CHANGE` for all targets with a read time, none older than the last one) for a
  /// CURRENT target whose view
  /// changed, that has not had a snapshot yet, or that is back in sync after
  /// ``WatchState/connectionLost()`` or a ``resetTarget(targetID:)`` (then its `changes`
  /// may be empty).
  case snapshot(targetID: Int32, WatchSnapshot)
  /// The server removed the target with an error; only this target's listener fails. The
  /// target is already forgotten: do not send a removeTarget for it.
  case targetError(targetID: Int32, code: Int, message: String)
  /// An existence filter showed that the client missed changes: send `removeTarget(id)`
  /// then an `addTarget` for the same ID *without* a resume token. ``WatchState`` has
  /// already accounted for both requests (do not call `removeTarget`/`addTarget` on it); its
  /// next snapshot reports the differences to the last one delivered, and comes even when
  /// there are none. The listener is out of sync until then.
  case resetTarget(targetID: Int32)
}
