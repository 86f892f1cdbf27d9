import FirestoreWire
import Foundation

/// The one reading of a Firestore error reply (a non-2xx status) into a ``FirestoreError``:
/// the code from the JSON body's `status` (else from the HTTP status), the server's message
/// (else a proxy page's text, else the body's start), and the facts callers decide on, which
/// only the body's text tells: a request refused for its size, a transaction the server no
/// longer knows.
enum ErrorReply {
  /// How much of an error body is read; the message quotes less.
  static let maximumBytes = 1 << 20

  /// The error a reply with `status`, `contentType` and `body` stands for, on a request
  /// with `method` to `path`.
  static func error(status: Int, contentType: String?, body: Data, method: String, path: String) -> FirestoreError {
    var code = FirestoreError.Code(httpStatus: status)
    var message = String(decoding: body.prefix(500), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    var serverStatus: String?
    if let json = try? JSONParser.parse(body), let parsed = try? ErrorBody(json: json) {
      if let named = FirestoreError.Code(statusName: parsed.status) { code = named }
      message = parsed.message
      serverStatus = parsed.status
    }
    if serverStatus == nil, let page = ReplyProblem.htmlPage(body, contentType: contentType) {
      // A proxy's or load balancer's error page: its text, not its markup.
      message = "HTTP \(status) with an HTML page instead of a Firestore error: \(page)"
    }
    if message.isEmpty { message = "HTTP \(status) with no message" }
    return FirestoreError(code, message, httpStatus: status, requestMethod: method, requestPath: path).with {
      $0.serverStatus = serverStatus
      $0.requestTooLarge = FirestoreError.isSizeRefusal(code: code, message: message)
      $0.transactionExpired = serverStatus != nil && isExpiredTransaction(code: code, message: message)
    }
  }

  /// Whether an error says the transaction named is unknown to the server. Firestore says
  /// so only in text, with `INVALID_ARGUMENT`: production "has expired or is no longer
  /// valid", the emulator "invalid or closed", or "Invalid transaction." for one it let go.
  private static func isExpiredTransaction(code: FirestoreError.Code, message: String) -> Bool {
    guard code == .invalidArgument else { return false }
    let text = message.lowercased()
    return text.contains("transaction")
      && (text.contains("expired") || text.contains("closed") || text.contains("no longer valid") || text.contains("invalid transaction"))
  }
}
