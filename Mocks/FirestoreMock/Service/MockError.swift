import FirestoreWire

/// An error the mock answers with, shaped like the emulator's REST errors:
/// `{"error":{"code":<HTTP status>,"message":"…","status":"<gRPC code name>"}}`.
struct MockError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The gRPC status codes the mock answers with; the raw value is the code's number, as
  /// stream statuses carry it.
  enum Code: Int, Sendable {
    case cancelled = 1
    case unknown, invalidArgument, deadlineExceeded, notFound, alreadyExists, permissionDenied
    case resourceExhausted, failedPrecondition, aborted, outOfRange, unimplemented, `internal`, unavailable, dataLoss
    case unauthenticated

    /// The code's name as REST bodies spell it, e.g. `INVALID_ARGUMENT`.
    var name: String {
      String(describing: self).reduce(into: "") { name, character in
        if character.isUppercase { name.append("_") }
        name.append(character.uppercased())
      }
    }

    /// The HTTP status REST answers this code with (the mapping of `google.rpc.Code`).
    var httpStatus: Int {
      switch self {
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
  }

  /// What went wrong.
  var code: Code
  /// The human-readable message; empty means the body has no `message` member.
  var message: String

  /// An error with this code and message.
  init(_ code: Code, _ message: String = "") {
    self.code = code
    self.message = message
  }

  /// The HTTP status, which is also the body's `code`.
  var httpStatus: Int { code.httpStatus }
  /// The gRPC code name, e.g. `INVALID_ARGUMENT`.
  var status: String { code.name }

  /// `INVALID_ARGUMENT`: a malformed request.
  static func invalidArgument(_ message: String) -> MockError { MockError(.invalidArgument, message) }
  /// `FAILED_PRECONDITION`: a request the current state (or the emulator) cannot serve.
  static func failedPrecondition(_ message: String) -> MockError { MockError(.failedPrecondition, message) }
  /// `UNKNOWN`, which the emulator sends without a message when it fails internally.
  static func unknown(_ message: String = "") -> MockError { MockError(.unknown, message) }

  /// The REST error body, members in the emulator's order (`code`, `message`, `status`).
  var json: JSONValue {
    var members: [(String, JSONValue)] = [("code", .integer(Int64(httpStatus)))]
    if !message.isEmpty { members.append(("message", .string(message))) }
    members.append(("status", .string(status)))
    return .object([("error", .object(members))])
  }

  var description: String { "\(httpStatus) \(status): \(message)" }
}
