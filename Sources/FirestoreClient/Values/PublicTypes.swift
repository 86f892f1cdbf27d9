import FirestoreWire

/// A point in time with nanosecond precision; Firestore's timestamp type.
public typealias Timestamp = FirestoreWire.Timestamp

/// A latitude/longitude pair; Firestore's geo point type.
public typealias GeoPoint = FirestoreWire.GeoPoint
