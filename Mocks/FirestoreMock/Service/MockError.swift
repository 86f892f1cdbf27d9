import FirestoreWire

/// An error the mock answers with, shaped like the emulator's REST errors:
/// `{"error":{"code":<HTTP status>,"message":"…","status":"<gRPC code name>"}}`.
struct MockError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What went wrong.
  var code: RPCCode
  /// The human-readable message; empty means the body has no `message` member.
  var message: String

  /// An error with this code and message.
  init(_ code: RPCCode, _ message: String = "") {
    self.code = code
    self.message = message
  }

  /// The HTTP status, which is also the body's `code`.
  var httpStatus: Int { code.httpStatus }
  /// The gRPC code name, e.g. `INVALID_ARGUMENT`.
  var status: String { code.statusName }

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
