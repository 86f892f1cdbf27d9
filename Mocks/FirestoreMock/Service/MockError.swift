import FirestoreWire

/// An error the mock answers with, shaped like the emulator's REST errors:
/// `{"error":{"code":<HTTP status>,"message":"…","status":"<gRPC code name>"}}`.
struct MockError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The HTTP status, which is also the body's `code`.
  var httpStatus: Int
  /// The gRPC code name, e.g. `INVALID_ARGUMENT`.
  var status: String
  /// The human-readable message; empty means the body has no `message` member.
  var message: String

  /// 400 `INVALID_ARGUMENT`: a malformed request.
  static func invalidArgument(_ message: String) -> MockError {
    MockError(httpStatus: 400, status: "INVALID_ARGUMENT", message: message)
  }

  /// 400 `FAILED_PRECONDITION`: a request the current state (or the emulator) cannot serve.
  static func failedPrecondition(_ message: String) -> MockError {
    MockError(httpStatus: 400, status: "FAILED_PRECONDITION", message: message)
  }

  /// 404 `NOT_FOUND`.
  static func notFound(_ message: String) -> MockError {
    MockError(httpStatus: 404, status: "NOT_FOUND", message: message)
  }

  /// 409 `ALREADY_EXISTS`.
  static func alreadyExists(_ message: String) -> MockError {
    MockError(httpStatus: 409, status: "ALREADY_EXISTS", message: message)
  }

  /// 409 `ABORTED`: transaction contention.
  static func aborted(_ message: String) -> MockError {
    MockError(httpStatus: 409, status: "ABORTED", message: message)
  }

  /// 403 `PERMISSION_DENIED`.
  static func permissionDenied(_ message: String) -> MockError {
    MockError(httpStatus: 403, status: "PERMISSION_DENIED", message: message)
  }

  /// 500 `UNKNOWN`, which the emulator sends without a message when it fails internally.
  static func unknown(_ message: String = "") -> MockError {
    MockError(httpStatus: 500, status: "UNKNOWN", message: message)
  }

  /// The gRPC code number of ``status`` (`UNKNOWN`, 2, for a name it does not know), as
  /// stream statuses carry it.
  var grpcCode: Int {
    let names = [
      "OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND", "ALREADY_EXISTS", "PERMISSION_DENIED",
      "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS",
      "UNAUTHENTICATED",
    ]
    return names.firstIndex(of: status) ?? 2
  }

  /// The REST error body, members in the emulator's order (`code`, `message`, `status`).
  var json: JSONValue {
    var members: [(String, JSONValue)] = [("code", .integer(Int64(httpStatus)))]
    if !message.isEmpty { members.append(("message", .string(message))) }
    members.append(("status", .string(status)))
    return .object([("error", .object(members))])
  }

  var description: String { "\(httpStatus) \(status): \(message)" }
}
