import FirestoreWire

/// One live target of a Listen session and what the client has been told about it.
struct ListenTargetState: Sendable {
  /// The target as the client added it.
  var target: Target
  /// The documents last sent for the target: full name → update time.
  var view: [String: Timestamp]
}
