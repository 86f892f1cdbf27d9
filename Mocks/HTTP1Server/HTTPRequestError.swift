/// A request the server answers itself with a Firestore-style JSON error, then closes the
/// connection (the byte stream can no longer be trusted).
package struct HTTPRequestError: Error, Sendable, Equatable {
  /// The HTTP status.
  package var status: Int
  /// The gRPC status name for the error body.
  package var grpcStatus: String
  /// The error message.
  package var message: String

  /// A 400 for malformed input.
  package static func badRequest(_ message: String) -> HTTPRequestError {
    HTTPRequestError(status: 400, grpcStatus: "INVALID_ARGUMENT", message: message)
  }

  /// The 413 Google front ends give for an oversized body.
  package static func payloadTooLarge(limit: Int) -> HTTPRequestError {
    HTTPRequestError(status: 413, grpcStatus: "INVALID_ARGUMENT", message: "Request payload size exceeds the limit: \(limit) bytes.")
  }
}

/// Why reading from a connection stopped without a request to answer.
package enum HTTPReadError: Error, Sendable {
  /// The peer closed the connection (or it failed).
  case closed
  /// Nothing arrived within the idle timeout.
  case timedOut
  /// The server is stopping.
  case stopped
}
