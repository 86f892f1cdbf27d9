/// What a field written with ``FieldValue/serverTimestamp()`` reads as while the write is
/// pending (before the server has set the time). The names follow the Firebase Apple SDK.
///
/// ```swift
/// let sentAt = snapshot.get("sentAt", serverTimestampBehavior: .estimate) as? Timestamp
/// ```
public enum ServerTimestampBehavior: Sendable, Hashable {
  /// `NSNull` (and `nil` for a decoded optional): the time is not known yet. The default.
  case none
  /// The time of the local write, an estimate of what the server will set.
  case estimate
  /// The field's value before the write, or `NSNull` when it had none.
  case previous
}
