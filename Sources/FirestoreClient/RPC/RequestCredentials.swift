/// What every request to Firestore carries beside its own headers and body: the client's
/// name, the database for routing, and the bearer token of the configured provider. REST
/// calls and the Listen channel's handshake both take theirs from here.
struct RequestCredentials: Sendable {
  /// The headers every request sends, names lower-cased.
  let headers: [String: String]
  /// Where tokens come from; `nil` sends none.
  let tokenProvider: (any TokenProvider)?
  /// The provider bounds its own waits by ``Deadline/current``, so a request need not race
  /// it against a timer.
  private let providerKeepsDeadlines: Bool
  /// The token of a provider whose token never changes (a ``StaticTokenProvider``): a REST
  /// call takes it without calling ``token(forceRefresh:deadline:expired:)``, as there is
  /// nothing to wait for and no deadline to pass down.
  let fixedToken: String??

  /// A token with what it makes for a REST call: the user it stands for, the headers that
  /// carry it (with and without a JSON body), and the redaction that keeps it out of
  /// errors. Made once per token, not per call.
  struct Signed: Sendable {
    let token: String?
    let user: TokenUser
    let headers: [String: String]
    let jsonHeaders: [String: String]
    /// The secrets the request carries: its bearer token, which a server's error body, a
    /// proxy's page or a transport's message may echo and which must not reach an error.
    let redaction: SecretRedaction
  }

  /// What `token`, which stands for `user`, makes (see ``Signed``).
  func signed(token: String?, user: TokenUser) -> Signed {
    var bearing = headers
    if let token { bearing["Authorization"] = "Bearer " + token }
    var json = bearing
    json["Content-Type"] = "application/json"
    return Signed(token: token, user: user, headers: bearing, jsonHeaders: json, redaction: SecretRedaction(secrets: [token ?? ""]))
  }

  /// The credentials of requests to `database` (`projects/{p}/databases/{d}`).
  init(database: String, tokenProvider: (any TokenProvider)?) {
    headers = [
      "x-goog-api-client": "swift-firestore/0.1",
      "x-goog-request-params": database.replacingOccurrences(of: "projects/", with: "project_id=")
        .replacingOccurrences(of: "/databases/", with: "&database_id="),
      "google-cloud-resource-prefix": database,
    ]
    self.tokenProvider = tokenProvider
    providerKeepsDeadlines = tokenProvider.map { $0 is any DeadlineKeepingTokenProvider } ?? true
    fixedToken = (tokenProvider as? StaticTokenProvider).map(\.value)
  }

  /// The provider's token (`nil` without a provider). With a `deadline`, a provider that does
  /// not keep deadlines itself is raced against it and fails with `expired` when it passes.
  ///
  /// - Throws: the provider's `FirestoreError` or `CancellationError` as they are; any other
  ///   failure of the provider as `unauthenticated`.
  func token(
    forceRefresh: Bool, deadline: ContinuousClock.Instant? = nil, expired: (@Sendable () -> FirestoreError)? = nil
  ) async throws -> String? {
    guard let provider = tokenProvider else { return nil }
    do {
      guard let deadline else { return try await provider.token(forceRefresh: forceRefresh) }
      return try await Deadline.$current.withValue(deadline) {
        if providerKeepsDeadlines { return try await provider.token(forceRefresh: forceRefresh) }
        // A provider of the app's own: raced against the deadline.
        return try await Deadline.run(
          deadline - .now, expired: expired?() ?? FirestoreError(.deadlineExceeded, "the token provider did not answer in time")
        ) { try await provider.token(forceRefresh: forceRefresh) }
      }
    } catch let error as FirestoreError {
      throw error
    } catch let error as CancellationError {
      throw error
    } catch {
      throw FirestoreError(.unauthenticated, "the token provider failed: \(error)")
    }
  }
}
