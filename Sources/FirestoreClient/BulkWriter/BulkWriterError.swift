/// A failed attempt of one ``BulkWriter`` write, as ``BulkWriter/onWriteError(_:)`` sees it.
public struct BulkWriterError: Error, Sendable, CustomStringConvertible {
  /// What kind of write failed.
  public enum OperationType: String, Sendable {
    /// ``BulkWriter/create(_:forDocument:)``.
    case create
    /// `setData` in any form.
    case set
    /// `updateData` in any form.
    case update
    /// ``BulkWriter/deleteDocument(_:precondition:)``.
    case delete
  }

  /// The error of this attempt.
  public let error: FirestoreError
  /// The document written.
  public let document: DocumentReference
  /// What kind of write it was.
  public let operationType: OperationType
  /// How many attempts of this write have failed, this one included.
  public let failedAttempts: Int

  /// The attempt's error code.
  public var code: FirestoreError.Code { error.canonicalCode }
  /// The attempt's error message.
  public var message: String { error.message }

  /// `set of users/ada failed (attempt 2): UNAVAILABLE: …`.
  public var description: String {
    "\(operationType.rawValue) of \(document.path) failed (attempt \(failedAttempts)): \(error)"
  }
}
