/// What a coder other than ``Firestore/Decoder`` meets when it is asked for a value only a
/// Firestore document can hold, as in the Apple SDK.
///
/// `JSONDecoder().decode(DocumentReference.self, from: data)` throws
/// `FirestoreDecodingError.decodingIsNotSupported`: a reference cannot be rebuilt without
/// the ``Firestore`` instance it belongs to.
public enum FirestoreDecodingError: Error, Sendable {
  /// The value can only be decoded by ``Firestore/Decoder``; the text names it and its field.
  case decodingIsNotSupported(String)
  /// Never thrown by this client: a document field named as a `@DocumentID` property is
  /// ignored, as the Apple SDK ignores it. Kept so that code catching it builds.
  case fieldNameConflict(String)
}
