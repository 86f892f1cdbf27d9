import FirestoreWire

/// The canonical error codes Firestore reports (gRPC's status codes, by their usual names),
/// as the Apple SDK names them.
public typealias FirestoreErrorCode = FirestoreWire.RPCCode
