import FirestoreClient

extension FirestoreError {
  /// `error` as a ``FirestoreError``: itself when it is one, otherwise `unknown` with its
  /// description and the error kept as the underlying one.
  static func wrapping(_ error: any Error) -> FirestoreError {
    if let error = error as? FirestoreError { return error }
    if error is CancellationError { return FirestoreError(.cancelled, "the read was cancelled") }
    return FirestoreError(.unknown, "\(error)", underlyingError: error)
  }
}
