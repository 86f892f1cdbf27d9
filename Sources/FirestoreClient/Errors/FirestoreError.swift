import FirestorePlatform

/// The one error type the client throws.
///
/// `code` is the canonical Firestore/gRPC code; `message` says what went wrong and, for
/// client-side validation, names the bad input. Server errors also carry the HTTP status
/// and the request's method and path (never its headers, so never a token). Both
/// `message` as given and the ``description`` pass through the client's display rules:
/// credentials in URLs removed, control characters spelled out (`\u{1B}`), and text past
/// 1,000 characters cut, so a server's reply cannot reach a terminal or a log as it came.
///
/// ```swift
/// do {
///   try await db.collection("users").document("u1").updateData(["name": "Ada"])
/// } catch let error as FirestoreError where error.code == .notFound {
///   // The document does not exist.
/// }
/// ```
public struct FirestoreError: Error, Sendable, CustomStringConvertible {
  /// The canonical code.
  public var code: FirestoreErrorCode
  /// A message that names the problem.
  public var message: String
  /// The HTTP status of the response that reported the error, if one did.
  public var httpStatus: Int?
  /// The HTTP method of the request that failed, if any.
  public var requestMethod: String?
  /// The URL path of the request that failed, if any (no query string, no headers).
  public var requestPath: String?
  /// The lower-level error (a network error, a decoding error), if any.
  public var underlyingError: (any Error & Sendable)?
  /// Set when the request provably never reached the server (no connection could be
  /// made), so even a non-idempotent request may be retried.
  var requestNotSent = false
  /// The `status` of the server's JSON error body, when there was one; tells a real
  /// `NOT_FOUND` from a 404 of an unknown URL.
  var serverStatus: String?
  /// Set when the server refused the request for its size: it will never fit, so no retry
  /// can help (see ``isSizeRefusal(code:message:)``).
  var requestTooLarge = false
  /// Set when the reply is larger than the client reads (``HTTPResponse/maximumBodyBytes``):
  /// the request was handled, and a retry would only read as large a reply again.
  var replyTooLarge = false
  /// Set when a queued write was not sent because the token is another user's than the
  /// one who made it (see ``TokenProvider/user(for:)``).
  var otherUser = false

  /// Creates an error.
  public init(
    _ code: FirestoreErrorCode, _ message: String, httpStatus: Int? = nil, requestMethod: String? = nil,
    requestPath: String? = nil, underlyingError: (any Error & Sendable)? = nil
  ) {
    self.code = code
    self.message = DisplayText.sanitize(message)
    self.httpStatus = httpStatus
    self.requestMethod = requestMethod
    self.requestPath = requestPath
    self.underlyingError = underlyingError
  }

  /// `CODE: message`, followed by the request when there was one.
  public var description: String {
    // `message` may have been changed since the error was made, so it is sanitized again.
    var text = "\(code.statusName): \(DisplayText.sanitize(message))"
    if let requestMethod, let requestPath {
      text += " (\(DisplayText.sanitize(requestMethod, limit: 40)) \(DisplayText.sanitize(requestPath))"
      if let httpStatus { text += " → HTTP \(httpStatus)" }
      text += ")"
    }
    return text
  }

  /// Whether a server error says the request exceeded the largest message Firestore
  /// accepts. Firestore and its emulator report it only as `RESOURCE_EXHAUSTED` with the
  /// gRPC text "exceeds maximum size", so this is the one place that reads the text.
  static func isSizeRefusal(code: FirestoreErrorCode, message: String) -> Bool {
    code == .resourceExhausted && message.contains("exceeds maximum size")
  }

  static func invalidArgument(_ message: String) -> FirestoreError {
    FirestoreError(.invalidArgument, message)
  }
}
