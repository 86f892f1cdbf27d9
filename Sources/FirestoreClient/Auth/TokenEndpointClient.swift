import FirestorePlatform
import FirestoreWire
import Foundation

/// How the token providers talk to token endpoints (OAuth, the metadata server, Firebase
/// Auth): one time limit per exchange, retries on transient failures, and errors that name
/// the endpoint and the problem but never a secret.
struct TokenEndpointClient: Sendable {
  /// What carries the requests.
  var transport: any Transport
  /// The longest one exchange may take, retries included.
  var timeout: Duration = .seconds(30)
  /// Retries on network failures, 5xx and 429 (token exchanges are safe to repeat).
  var retryPolicy = RetryPolicy(maximumAttempts: 3)

  /// A reply: status, headers (names lower-cased) and the whole body.
  struct Reply: Sendable {
    var status: Int
    var headers: [String: String]
    var body: Data

    /// The body as a JSON object, or `nil`.
    var json: JSONValue? {
      guard let value = try? JSONParser.parse(body), value.objectValue != nil else { return nil }
      return value
    }
  }

  /// Creates a client; `transport` defaults to ``FirestoreSettings/defaultTransport``.
  init(transport: (any Transport)?) {
    self.transport = transport ?? FirestoreSettings.defaultTransport
  }

  /// Sends `call` until it gets a 2xx reply, a refusal, or its retry class and the policy
  /// give up.
  ///
  /// - Parameters:
  ///   - what: names the exchange in errors, e.g. `token endpoint https://…/token`.
  ///   - redaction: secrets that must not appear in any error.
  ///   - refusal: turns a non-2xx reply into the error to report (retried when its code
  ///     is one the retry policy retries).
  func send(
    _ call: TokenEndpointRPC, what: String, redaction: SecretRedaction,
    refusal: @escaping @Sendable (Reply) -> FirestoreError
  ) async throws -> Reply {
    let clock = ContinuousClock()
    // Within the call this token is for, when there is one.
    let deadline = min(clock.now + timeout, Deadline.current ?? clock.now + timeout)
    let timeout = self.timeout
    let expired: @Sendable () -> FirestoreError = { FirestoreError(.deadlineExceeded, "\(what) did not answer within \(timeout)") }
    let cancelled = FirestoreError(.cancelled, "\(what): the request was cancelled")
    let loop = RetryLoop(retryClass: call.retryClass, policy: retryPolicy, deadline: deadline)
    let transport = self.transport
    return try await loop.run(cancelled: cancelled) { _ in
      guard clock.now < deadline else { throw expired() }
      let answered = Locked(false)
      do {
        return try await Deadline.send(call.request, through: transport, by: deadline, expired: expired) { response in
          answered.withLock { $0 = true }
          let body = try await response.collectBody(limit: 1 << 20)
          let reply = Reply(status: response.status, headers: response.headers, body: body)
          guard (200..<300).contains(response.status) else { throw refusal(reply) }
          return reply
        }
      } catch let error as FirestoreError where !answered.withLock({ $0 }) && error.message != expired().message {
        // The transport's own failure: say which endpoint it was.
        throw redaction.scrub(error.with { $0.message = "\(what): \(error.message)" })
      } catch let error as FirestoreError {
        throw redaction.scrub(error)
      } catch is CancellationError {
        throw cancelled
      } catch {
        throw FirestoreError(.unavailable, "\(what): network error (\(type(of: error)))")
      }
    }
  }

  /// The code for a non-2xx reply of a token endpoint: 5xx and 429 are transient,
  /// 400/401/403 mean the credentials were refused.
  static func code(forStatus status: Int) -> FirestoreError.Code {
    switch status {
    case 429: return .resourceExhausted
    case 500..<600: return .unavailable
    case 404: return .notFound
    default: return .unauthenticated
    }
  }

  /// Checks that `url` may carry secrets: `https`, or `http` when the caller configured
  /// the host explicitly (an emulator or a mock).
  static func checkScheme(_ url: URL, allowHTTP: Bool, what: String) throws(FirestoreError) {
    switch url.scheme?.lowercased() {
    case "https": return
    case "http" where allowHTTP: return
    case "http":
      throw .invalidArgument("\(what) \(display(url)) is plain http; credentials are only sent over https")
    default:
      throw .invalidArgument("\(what) \(display(url)) is not an http(s) URL")
    }
  }

  /// `scheme://host[:port]/path` of `url`: no query string, which may carry an API key.
  static func display(_ url: URL) -> String {
    var text = (url.scheme.map { $0 + "://" } ?? "") + (url.host ?? "")
    if let port = url.port { text += ":\(port)" }
    return text + url.path
  }
}
