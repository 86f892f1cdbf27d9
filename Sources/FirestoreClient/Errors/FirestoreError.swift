import FirestorePlatform
import FirestoreWire
import Foundation

/// The one error type the client throws: an `NSError` in ``FirestoreErrorDomain``, as the
/// Apple SDK's errors are, so every way Apple SDK code catches them works here too.
///
/// `code` is the canonical Firestore/gRPC code (``canonicalCode`` always names it as a
/// ``Code``); ``message`` says what went wrong and, for client-side validation, names the
/// bad input. Server errors also carry the HTTP status and the request's method and path
/// (never its headers, so never a token). Both `message` and the ``description`` pass
/// through the client's display rules: credentials in URLs removed, control characters
/// spelled out (`\u{1B}`), and text past 1,000 characters cut, so a server's reply cannot
/// reach a terminal or a log as it came.
///
/// ```swift
/// do {
///   try await db.collection("users").document("u1").updateData(["name": "Ada"])
/// } catch FirestoreErrorCode.notFound {
///   // The document does not exist.
/// } catch let error as FirestoreError where error.code == .permissionDenied {
///   print(error.message)
/// } catch let error as NSError where error.domain == FirestoreErrorDomain {
///   print(FirestoreErrorCode.Code(rawValue: error.code) ?? .unknown)
/// }
/// ```
///
/// `code` is `NSError`'s `Int` where nothing says otherwise (`error.code ==
/// FirestoreErrorCode.notFound.rawValue`) and the ``Code`` where the context asks for one
/// (`error.code == .notFound`), as with the Apple SDK's bridged `FirestoreErrorCode`.
public final class FirestoreError: NSError, _BridgedStoredNSError, @unchecked Sendable {
  /// The canonical error codes: gRPC's status codes, by the names the Apple SDK gives them.
  public typealias Code = RPCCode

  /// What an error is made of; internal code builds and changes errors through it, and an
  /// error, once made, never changes (which is what makes it `Sendable`).
  struct Parts: Sendable {
    var code: Code
    var message: String
    var httpStatus: Int?
    var requestMethod: String?
    var requestPath: String?
    var underlyingError: (any Error & Sendable)?
    /// The request provably never reached the server (no connection could be made), so
    /// even a non-idempotent request may be retried.
    var requestNotSent = false
    /// The `status` of the server's JSON error body, when there was one; tells a real
    /// `NOT_FOUND` from a 404 of an unknown URL.
    var serverStatus: String?
    /// The server refused the request for its size: it will never fit, so no retry can help
    /// (see ``FirestoreError/isSizeRefusal(code:message:)``).
    var requestTooLarge = false
    /// The request was handled, but its reply cannot be used, and would not be if asked
    /// again: larger than the client reads (``HTTPResponse/maximumBodyBytes``), or not
    /// matching the request (a commit's results for another number of writes).
    var replyUnusable = false
    /// A queued write was not sent because the token is another user's than the one who
    /// made it (see ``TokenProvider/user(for:)``).
    var otherUser = false
    /// The server no longer knows the transaction the request named (it expired, or was
    /// closed): nothing of it was committed, so the transaction may run again.
    var transactionExpired = false
    /// Not sent because the instance was terminated first (``Firestore/terminate()``): a
    /// queued write it carried stays queued for the next instance on the same cache.
    var instanceTerminated = false
  }

  let parts: Parts

  /// The canonical code, always as a ``Code`` (`code` reads as `NSError`'s `Int` where
  /// nothing asks for a ``Code``, as in a `switch`).
  public var canonicalCode: Code { parts.code }
  /// A message that names the problem.
  public var message: String { parts.message }
  /// The HTTP status of the response that reported the error, if one did.
  public var httpStatus: Int? { parts.httpStatus }
  /// The HTTP method of the request that failed, if any.
  public var requestMethod: String? { parts.requestMethod }
  /// The URL path of the request that failed, if any (no query string, no headers).
  public var requestPath: String? { parts.requestPath }
  /// The lower-level error (a network error, a decoding error), if any.
  public var underlyingError: (any Error & Sendable)? { parts.underlyingError }

  var requestNotSent: Bool { parts.requestNotSent }
  var serverStatus: String? { parts.serverStatus }
  var requestTooLarge: Bool { parts.requestTooLarge }
  var replyUnusable: Bool { parts.replyUnusable }
  var otherUser: Bool { parts.otherUser }
  var transactionExpired: Bool { parts.transactionExpired }
  var instanceTerminated: Bool { parts.instanceTerminated }

  /// Creates an error.
  public convenience init(
    _ code: Code, _ message: String, httpStatus: Int? = nil, requestMethod: String? = nil,
    requestPath: String? = nil, underlyingError: (any Error & Sendable)? = nil
  ) {
    self.init(
      Parts(
        code: code, message: message, httpStatus: httpStatus, requestMethod: requestMethod, requestPath: requestPath,
        underlyingError: underlyingError))
  }

  init(_ parts: Parts) {
    var parts = parts
    parts.message = DisplayText.sanitize(parts.message)
    self.parts = parts
    var userInfo: [String: Any] = [NSLocalizedDescriptionKey: parts.message]
    if let underlying = parts.underlyingError { userInfo[NSUnderlyingErrorKey] = underlying as NSError }
    super.init(domain: FirestoreErrorDomain, code: parts.code.rawValue, userInfo: userInfo)
  }

  /// Wraps an `NSError` of ``FirestoreErrorDomain`` (an error an app made with that
  /// domain, say), keeping its code and description.
  public required convenience init(_nsError error: NSError) {
    self.init(Code(rawValue: error.code) ?? .unknown, error.localizedDescription)
  }

  /// Not supported: errors are not archived.
  public required init?(coder: NSCoder) { nil }

  /// This error with some of its parts changed.
  func with(_ change: (inout Parts) -> Void) -> FirestoreError {
    var changed = parts
    change(&changed)
    return FirestoreError(changed)
  }

  /// This error with `message` in place of its own, everything else kept: for a caller that
  /// adds what it knows.
  public func replacingMessage(_ message: String) -> FirestoreError {
    with { $0.message = message }
  }

  /// ``FirestoreErrorDomain``.
  public static var errorDomain: String { FirestoreErrorDomain }
  /// ``FirestoreErrorDomain``, for Foundation's bridging of stored errors.
  public static var _nsErrorDomain: String { FirestoreErrorDomain }
  /// The error itself: it is its own `NSError`.
  public var _nsError: NSError { self }

  /// `CODE: message`, followed by the request when there was one.
  public override var description: String {
    var text = "\(canonicalCode.statusName): \(message)"
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
  static func isSizeRefusal(code: Code, message: String) -> Bool {
    code == .resourceExhausted && message.contains("exceeds maximum size")
  }

  static func invalidArgument(_ message: String) -> FirestoreError {
    FirestoreError(.invalidArgument, message)
  }
}
