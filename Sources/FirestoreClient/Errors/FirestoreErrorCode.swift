import FirestoreWire
import Foundation

// swift-format-ignore: AlwaysUseLowerCamelCase
// The Apple SDK's name, kept so that ported code compiles.
/// The domain of every ``FirestoreError`` (`"FIRFirestoreErrorDomain"`, as in the Apple SDK).
public let FirestoreErrorDomain = "FIRFirestoreErrorDomain"

/// The Apple SDK's name for the Swift type of Firestore's errors: `FirestoreErrorCode.Code`
/// is the code enumeration, `FirestoreErrorCode.notFound` one of its values, and
/// `catch FirestoreErrorCode.notFound` or `catch let error as FirestoreErrorCode` catch what
/// the client throws.
public typealias FirestoreErrorCode = FirestoreError

extension FirestoreError {
  /// The operation completed successfully.
  public static var ok: Code { .ok }
  /// The operation was cancelled.
  public static var cancelled: Code { .cancelled }
  /// An unknown error.
  public static var unknown: Code { .unknown }
  /// The client specified an invalid argument.
  public static var invalidArgument: Code { .invalidArgument }
  /// The deadline expired before the operation could complete.
  public static var deadlineExceeded: Code { .deadlineExceeded }
  /// A requested document was not found.
  public static var notFound: Code { .notFound }
  /// A document the operation tried to create already exists.
  public static var alreadyExists: Code { .alreadyExists }
  /// The caller may not run the operation.
  public static var permissionDenied: Code { .permissionDenied }
  /// A resource has been exhausted (a quota, or the space of a message).
  public static var resourceExhausted: Code { .resourceExhausted }
  /// The system is not in the state the operation requires.
  public static var failedPrecondition: Code { .failedPrecondition }
  /// The operation was aborted, typically by a transaction's contention.
  public static var aborted: Code { .aborted }
  /// The operation was attempted past the valid range.
  public static var outOfRange: Code { .outOfRange }
  /// The operation is not implemented or supported.
  public static var unimplemented: Code { .unimplemented }
  /// An internal error: an invariant the system expects was broken.
  public static var `internal`: Code { .internal }
  /// The service is unavailable for now; retrying may help.
  public static var unavailable: Code { .unavailable }
  /// Unrecoverable data loss or corruption.
  public static var dataLoss: Code { .dataLoss }
  /// The request does not have valid authentication credentials.
  public static var unauthenticated: Code { .unauthenticated }
}

extension RPCCode: _ErrorCodeProtocol {
  /// The error type a code is matched against in `catch FirestoreErrorCode.notFound`.
  public typealias _ErrorType = FirestoreError

  /// Whether `error` is a `FirestoreError` with this code: what makes
  /// `catch FirestoreErrorCode.notFound` and `case FirestoreErrorCode.unavailable:` work.
  public static func ~= (code: RPCCode, error: any Error) -> Bool {
    (error as? FirestoreError)?.canonicalCode == code
  }
}
