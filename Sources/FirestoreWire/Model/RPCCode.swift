/// The canonical status codes of Firestore's errors (`google.rpc.Code`: gRPC's status codes,
/// by their usual names), for the client (as `FirestoreError.Code`) and the mock alike.
public enum RPCCode: Int, Sendable, CaseIterable, CustomStringConvertible {
  case ok = 0
  case cancelled = 1
  case unknown = 2
  case invalidArgument = 3
  case deadlineExceeded = 4
  case notFound = 5
  case alreadyExists = 6
  case permissionDenied = 7
  case resourceExhausted = 8
  case failedPrecondition = 9
  case aborted = 10
  case outOfRange = 11
  case unimplemented = 12
  case `internal` = 13
  case unavailable = 14
  case dataLoss = 15
  case unauthenticated = 16

  /// The gRPC status name, e.g. `"NOT_FOUND"`, as Firestore writes it in error bodies.
  public var statusName: String {
    switch self {
    case .ok: return "OK"
    case .cancelled: return "CANCELLED"
    case .unknown: return "UNKNOWN"
    case .invalidArgument: return "INVALID_ARGUMENT"
    case .deadlineExceeded: return "DEADLINE_EXCEEDED"
    case .notFound: return "NOT_FOUND"
    case .alreadyExists: return "ALREADY_EXISTS"
    case .permissionDenied: return "PERMISSION_DENIED"
    case .resourceExhausted: return "RESOURCE_EXHAUSTED"
    case .failedPrecondition: return "FAILED_PRECONDITION"
    case .aborted: return "ABORTED"
    case .outOfRange: return "OUT_OF_RANGE"
    case .unimplemented: return "UNIMPLEMENTED"
    case .internal: return "INTERNAL"
    case .unavailable: return "UNAVAILABLE"
    case .dataLoss: return "DATA_LOSS"
    case .unauthenticated: return "UNAUTHENTICATED"
    }
  }

  /// The code for a gRPC status name (`"NOT_FOUND"`), or `nil` when unknown.
  public init?(statusName: String) {
    guard let code = Self.allCases.first(where: { $0.statusName == statusName }) else { return nil }
    self = code
  }

  /// The code that best describes an HTTP status when the body names none.
  ///
  /// `502 Bad Gateway` is `unavailable`, as `503` is: a proxy or load balancer in front of
  /// Firestore could not reach it, a transient condition that a read may retry (gRPC maps
  /// it the same way).
  public init(httpStatus: Int) {
    switch httpStatus {
    case 200..<300: self = .ok
    case 400: self = .invalidArgument
    case 401: self = .unauthenticated
    case 403: self = .permissionDenied
    case 404: self = .notFound
    case 409: self = .aborted
    case 412: self = .failedPrecondition
    case 413: self = .invalidArgument
    case 416: self = .outOfRange
    case 429: self = .resourceExhausted
    case 499: self = .cancelled
    case 501: self = .unimplemented
    case 502, 503: self = .unavailable
    case 504: self = .deadlineExceeded
    case 500..<600: self = .internal
    default: self = .unknown
    }
  }

  /// The HTTP status a REST reply carries with this code (the mapping `google.rpc.Code`
  /// documents).
  public var httpStatus: Int {
    switch self {
    case .ok: 200
    case .invalidArgument, .failedPrecondition, .outOfRange: 400
    case .unauthenticated: 401
    case .permissionDenied: 403
    case .notFound: 404
    case .alreadyExists, .aborted: 409
    case .resourceExhausted: 429
    case .cancelled: 499
    case .unknown, .internal, .dataLoss: 500
    case .unimplemented: 501
    case .unavailable: 503
    case .deadlineExceeded: 504
    }
  }

  /// The status name.
  public var description: String { statusName }
}
