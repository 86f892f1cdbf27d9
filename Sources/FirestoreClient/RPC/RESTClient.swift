import FirestorePlatform
import FirestoreWire
import Foundation

/// The request pipeline every call goes through: URL building, auth header, retry with
/// backoff, the deadline, and mapping of error bodies to ``FirestoreError``.
final class RESTClient: Sendable {
  /// One call of the ``FirestoreRPC`` table with its body.
  struct Call: Sendable {
    /// Which call, where it goes and how it is retried.
    var rpc: FirestoreRPC
    /// The JSON body, encoded once when the call is made (retries resend the same bytes).
    var body: Data?
    /// The user whose token must carry the call (a queued write batch's), or `nil` for any:
    /// with another user's token it is not sent and fails with ``FirestoreError/otherUser``.
    var requiredUser: TokenUser?
    /// How long the call may take, retries included, when not ``FirestoreSettings/timeout``.
    var timeout: Duration?

    /// The call `rpc` with `body`, encoded now.
    init(_ rpc: FirestoreRPC, body: JSONValue? = nil) {
      self.rpc = rpc
      self.body = body.map { Data(JSONWriter.bytes($0)) }
    }

    /// The call `rpc` with a body already encoded.
    init(_ rpc: FirestoreRPC, encodedBody: Data) {
      self.rpc = rpc
      body = encodedBody
    }

    /// The HTTP method.
    var method: String { rpc.httpMethod }
    /// Sending it twice changes nothing.
    var idempotent: Bool { rpc.retryClass.isIdempotent }
  }

  let settings: ClientConfiguration
  let databasePath: String
  private let transport: any Transport
  /// `https://host/v1/projects/p/databases/d/`: what every call's URL starts with.
  private let urlPrefix: String
  /// The headers and the token every call sends.
  private let credentials: RequestCredentials

  /// A problem with the project or database ID, reported by every call.
  let configurationError: FirestoreError?
  /// Hears whom each token fetched stands for (the write queue follows the user).
  private let tokenUserObserver = Locked<(@Sendable (TokenUser) -> Void)?>(nil)
  /// What the last token fetched makes, for the calls after it that carry the same token
  /// (nearly all): a token is read (a JWT decoded, a digest taken) once, and its headers made
  /// once, not on every call.
  private let lastSigned = Locked<RequestCredentials.Signed?>(nil)
  /// What every call carries when there is no token provider.
  private let unsigned: RequestCredentials.Signed
  /// URLs made for calls, by their path: finding one costs less than parsing it, and most
  /// calls go to one of a few (the database's `:commit`, `:runQuery` and `:batchGet`, the
  /// documents an app reads again).
  private let urls = BoundedMemo<String, URL>(limit: 128)

  /// Calls `observer` with the user of every token fetched for a call from now on.
  func observeTokenUsers(_ observer: @escaping @Sendable (TokenUser) -> Void) {
    tokenUserObserver.withLock { $0 = observer }
  }

  init(settings: ClientConfiguration, databasePath: String, configurationError: FirestoreError? = nil) {
    self.configurationError = configurationError
    self.settings = settings
    self.databasePath = databasePath
    transport = settings.effectiveTransport
    urlPrefix = settings.baseURL + databasePath + "/"
    // `/v1/projects/p/databases/d` → `projects/p/databases/d`, for routing headers.
    credentials = RequestCredentials(database: String(databasePath.dropFirst(4)), tokenProvider: settings.tokenProvider)
    unsigned = credentials.signed(token: nil, user: .unauthenticated)
  }

  /// Sends a call and returns its JSON reply (an object or an array).
  ///
  /// - Throws: ``FirestoreError``; for a call that is not idempotent, a code that leaves
  ///   its outcome open (`unavailable`, `deadlineExceeded`, `internal`, `unknown`) comes
  ///   with a message that says so, unless the request provably never went out.
  func unary(_ call: Call) async throws -> JSONValue {
    try await unary(call) { try JSONParser.parse($0) }
  }

  /// Sends a call and decodes its reply's bytes with `decode`, which reads them straight
  /// into model types (the hot reads: documents, queries, batch gets); otherwise as
  /// ``unary(_:)``. A reply `decode` rejects is a malformed reply.
  func unary<T: Sendable>(
    _ call: Call, _ decode: @escaping @Sendable (UnsafeBufferPointer<UInt8>) throws -> T
  ) async throws -> T {
    do {
      return try await withRetries(call, readsWholeBody: true) { response, _ in
        let data = try await response.collectBody(limit: self.settings.maximumReplyBytes)
        do {
          return try data.withUnsafeBytes { try decode($0.bindMemory(to: UInt8.self)) }
        } catch let error as WireFormatError {
          throw self.malformedReply(
            call, response, start: data.prefix(ReplyProblem.excerptBytes), size: data.count, cutShort: JSONParser.isCutShort(data),
            detail: error)
        }
      }
    } catch let error as FirestoreError where !call.idempotent && !error.requestNotSent && RetryClass.leavesOutcomeOpen(error.canonicalCode)
    {
      throw error.with { $0.message += "; it may or may not have been applied" }
    }
  }

  /// Sends a call whose reply is a JSON array; returns its first element (`nil` for an
  /// empty array) and the reader of the rest, each element read by `decode` straight from
  /// its bytes as the caller asks for it.
  ///
  /// The deadline and the retries cover the reply up to its first element (or its end):
  /// until then nothing was handed out, so a failure may start the call over. After that
  /// the call's deadline gives way to an idle one of the same length (no bytes for that
  /// long, or no element for that long while the caller waits, fail the reader with
  /// `deadlineExceeded`), and a failure ends the reader with the error.
  func streamArray<Element: Sendable>(
    _ call: Call, _ decode: @escaping @Sendable (UnsafeBufferPointer<UInt8>) throws -> Element
  ) async throws -> (first: Element?, rest: JSONArrayReader<Element>) {
    try await withRetries(call) { response, redaction in
      let reader = JSONArrayReader(response: response, call: call, client: self, redaction: redaction, decode: decode)
      let first = try await reader.next()
      reader.keepIdleDeadline()
      return (first, reader)
    }
  }

  /// The error for a 2xx reply whose body is not the JSON expected.
  ///
  /// A reply that did not arrive whole — JSON cut short inside a value; with a body framed
  /// by the connection's end, a reset looks just like this — is `unavailable`, as a broken
  /// connection is. One that arrived whole but is not Firestore's JSON — an empty body,
  /// another content type (a proxy's or captive portal's HTML page), text that does not
  /// parse — is `internal`. The message names the content type and quotes the body's start.
  func malformedReply(
    _ call: Call, _ response: HTTPResponse, start: some Collection<UInt8>, size: Int, cutShort: Bool, detail: (any Error)?
  ) -> FirestoreError {
    let problem = ReplyProblem(
      status: response.status, contentType: response.headers["content-type"], start: Array(start), size: size, cutShort: cutShort,
      detail: detail.map { "\($0)" })
    return FirestoreError(
      problem.code, problem.message, httpStatus: response.status, requestMethod: call.method, requestPath: urlPath(call),
      underlyingError: detail as? WireFormatError)
  }

  /// Runs `call` until it succeeds or the policy gives up; `handle` reads a 2xx response.
  /// - Parameter handle: reads a 2xx reply; also given what the request carried that must
  ///   not reach an error (its token), for a reader that outlives the call.
  /// - Parameter readsWholeBody: `handle` reads the whole body before anything else
  ///   (``HTTPRequest/readsWholeBody``).
  private func withRetries<T: Sendable>(
    _ call: Call, readsWholeBody: Bool = false, _ handle: @escaping @Sendable (HTTPResponse, SecretRedaction) async throws -> T
  ) async throws -> T {
    if let configurationError { throw configurationError }
    // One deadline for the whole call, retries and their backoff included.
    let clock = ContinuousClock()
    let timeout = call.timeout ?? settings.timeout
    let deadline = clock.now + timeout
    // Made only when needed, the path too: an error is not free to make, and most calls
    // succeed.
    let expired: @Sendable () -> FirestoreError = {
      let path = self.urlPath(call)
      return FirestoreError(
        .deadlineExceeded,
        "\(call.method) \(path) did not finish within \(timeout)\(call.timeout == nil ? " (FirestoreSettings.timeout)" : "")",
        requestMethod: call.method, requestPath: path)
    }
    let cancelled = { FirestoreError(.cancelled, "the call was cancelled", requestMethod: call.method, requestPath: self.urlPath(call)) }
    let loop = RetryLoop(
      retryClass: call.rpc.retryClass, policy: settings.retryPolicy, deadline: deadline, hasTokenProvider: settings.tokenProvider != nil)
    return try await loop.run(cancelled: cancelled()) { refreshCredentials in
      do {
        guard clock.now < deadline else { throw expired() }
        // The token is fetched within the deadline too: a token endpoint that hangs must
        // not hold the call past it.
        let (made, redaction) = try await makeRequest(call, forceRefresh: refreshCredentials, deadline: deadline, expired: expired)
        var request = made
        request.readsWholeBody = readsWholeBody
        do {
          return try await Deadline.send(request, through: transport, by: deadline, expired: expired) { response in
            guard (200..<300).contains(response.status) else {
              throw await self.error(from: response, call: call)
            }
            return try await handle(response, redaction)
          }
        } catch let error as FirestoreError {
          throw redaction.scrub(error)
        } catch is CancellationError {
          throw CancellationError()
        } catch {
          // A transport of the app's own may throw anything.
          throw redaction.scrub(
            FirestoreError(.unavailable, "transport failed: \(error)", requestMethod: call.method, requestPath: urlPath(call)))
        }
      } catch is CancellationError {
        throw cancelled()
      }
    }
  }

  func urlPath(_ call: Call) -> String { databasePath + "/" + call.rpc.path }

  /// The request for one attempt at `call`, and the redaction of the token it carries.
  private func makeRequest(
    _ call: Call, forceRefresh: Bool, deadline: ContinuousClock.Instant, expired: @escaping @Sendable () -> FirestoreError
  ) async throws -> (HTTPRequest, SecretRedaction) {
    let url = try url(for: call)
    var signed = unsigned
    if let provider = credentials.tokenProvider {
      let token: String?
      if let fixed = credentials.fixedToken {
        // Known without a call: an async call costs its frame even when it returns at once.
        token = fixed
      } else {
        do {
          token = try await credentials.token(forceRefresh: forceRefresh, deadline: deadline, expired: expired)
        } catch is CancellationError {
          throw FirestoreError(.cancelled, "the call was cancelled", requestMethod: call.method, requestPath: urlPath(call))
        }
      }
      if let last = lastSigned.value, last.token == token {
        signed = last
      } else {
        signed = credentials.signed(token: token, user: provider.user(for: token))
        lastSigned.withLock { $0 = signed }
      }
    }
    let user = signed.user
    tokenUserObserver.value?(user)
    if let required = call.requiredUser, required != user {
      throw FirestoreError(
        .unauthenticated, "not sent: the write was made by another user than the one signed in now; it waits for that user",
        requestMethod: call.method, requestPath: urlPath(call)
      ).with {
        $0.requestNotSent = true
        $0.otherUser = true
      }
    }
    let headers = call.body == nil ? signed.headers : signed.jsonHeaders
    return (HTTPRequest(method: call.method, url: url, headers: headers, body: call.body, isIdempotent: call.idempotent), signed.redaction)
  }

  /// The URL of `call`, from ``urls`` when it was made before.
  private func url(for call: Call) throws(FirestoreError) -> URL {
    let path = call.rpc.path
    // A call with query parameters (a page token) is not kept.
    guard call.rpc.query.isEmpty else {
      let query = call.rpc.query.map { PercentEncoding.encode($0.0) + "=" + PercentEncoding.encode($0.1) }
      return try parseURL(urlPrefix + path + "?" + query.joined(separator: "&"), of: call)
    }
    // Kept by the path alone: every URL of this client starts with the same prefix.
    return try urls.value(for: path) { () throws(FirestoreError) in try parseURL(urlPrefix + path, of: call) }
  }

  private func parseURL(_ text: String, of call: Call) throws(FirestoreError) -> URL {
    guard let url = URL(string: text) else {
      throw FirestoreError(.invalidArgument, "cannot form a URL from host \"\(settings.host)\" and path \(urlPath(call))")
    }
    return url
  }

  /// Reads an error response into a ``FirestoreError``; non-JSON bodies are tolerated.
  private func error(from response: HTTPResponse, call: Call) async -> FirestoreError {
    let data = (try? await response.collectBody(limit: ErrorReply.maximumBytes)) ?? Data()
    return ErrorReply.error(
      status: response.status, contentType: response.headers["content-type"], body: data, method: call.method, path: urlPath(call))
  }
}
