/// What a coder other than ``Firestore/Encoder`` meets when it is given a value only a
/// Firestore write can hold, as in the Apple SDK.
///
/// `JSONEncoder().encode(reference)` throws
/// `FirestoreEncodingError.encodingIsNotSupported`: a ``DocumentReference`` or a
/// ``FieldValue`` sentinel has no form outside a Firestore document.
public enum FirestoreEncodingError: Error, Sendable {
  /// The value can only be encoded by ``Firestore/Encoder``; the text names it and its field.
  case encodingIsNotSupported(String)
}
