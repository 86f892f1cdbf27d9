import FirestorePlatform
import FirestoreWire
import Foundation

/// OAuth 2.0 access tokens from the Google Cloud metadata server: the credentials of code
/// running on Compute Engine, Cloud Run, Cloud Functions or GKE, acting as the attached
/// service account (security rules bypassed).
///
/// Requests carry `Metadata-Flavor: Google`, and only replies carrying it back are
/// trusted. The metadata server is reachable only from inside the instance and speaks
/// plain `http` by design, so this provider is the one that sends no TLS; its host is
/// `metadata.google.internal` unless `GCE_METADATA_HOST` (or `host`) names another.
/// Tokens are cached and refreshed ahead of expiry; concurrent callers share one refresh.
///
/// ```swift
/// let settings = FirestoreSettings()
/// settings.tokenProvider = MetadataServerTokenProvider()
/// let db = try await Firestore(settings: settings)  // project from the metadata server
/// ```
public final class MetadataServerTokenProvider: TokenProvider, CustomStringConvertible {
  /// The default metadata host.
  public static let defaultHost = "metadata.google.internal"

  /// `host[:port]` of the metadata server.
  public let host: String
  /// The service account whose tokens are asked for (`default`: the attached one).
  public let serviceAccount: String

  /// The machine's service account, whichever access token it currently holds.
  public func user(for token: String?) -> TokenUser {
    .of(token, opaqueUser: "metadata-server:" + host + "/" + serviceAccount)
  }

  public var currentTokenUser: TokenUser? { .authenticated("metadata-server:" + host + "/" + serviceAccount) }
  let refresher: TokenRefresher
  private let client: TokenEndpointClient
  private let cachedProjectID = Locked<String?>(nil)

  /// Creates a provider.
  /// - Parameters:
  ///   - host: the metadata server; by default `GCE_METADATA_HOST` or `metadata.google.internal`.
  ///   - serviceAccount: the account, `default` for the instance's own.
  ///   - scopes: scopes to ask for; `nil` takes the instance's (Cloud Run and GKE ignore it).
  ///   - environment: where `GCE_METADATA_HOST` is read.
  ///   - transport: what carries the requests.
  public init(
    host: String? = nil, serviceAccount: String = "default", scopes: [String]? = nil,
    environment: [String: String] = ProcessInfo.processInfo.environment, transport: (any Transport)? = nil
  ) {
    let resolved = host ?? Self.host(environment: environment)
    self.host = resolved
    self.serviceAccount = serviceAccount
    var configured = TokenEndpointClient(transport: transport)
    configured.timeout = .seconds(15)
    let client = configured
    self.client = client
    let call = TokenEndpointRPC.metadata(.token(serviceAccount: serviceAccount, scopes: scopes), host: resolved)
    refresher = TokenRefresher {
      guard let call else { throw FirestoreError.invalidArgument("metadata server host \"\(resolved)\" does not form a URL") }
      let what = "metadata server \(resolved) (service account \(serviceAccount))"
      let reply = try await client.send(
        call, what: what, redaction: SecretRedaction(secrets: []),
        refusal: OAuthTokenExchange.refusal(what: what, redaction: SecretRedaction(secrets: [])))
      try Self.checkFlavor(reply, what: what)
      return try OAuthTokenExchange.accessToken(from: reply, what: what)
    }
  }

  /// `GCE_METADATA_HOST`, or the default host.
  static func host(environment: [String: String]) -> String {
    if let host = environment["GCE_METADATA_HOST"]?.trimmingCharacters(in: .whitespaces), !host.isEmpty { return host }
    return defaultHost
  }

  public func token(forceRefresh: Bool) async throws -> String? {
    try await refresher.token(forceRefresh: forceRefresh)
  }

  /// The instance's project, asked once and then remembered.
  public func projectID() async throws -> String? {
    if let known = cachedProjectID.withLock({ $0 }) { return known }
    guard let call = TokenEndpointRPC.metadata(.projectID, host: host) else {
      throw FirestoreError.invalidArgument("metadata server host \"\(host)\" does not form a URL")
    }
    let what = "metadata server \(host) (project ID)"
    let reply = try await client.send(
      call, what: what, redaction: SecretRedaction(secrets: []),
      refusal: OAuthTokenExchange.refusal(what: what, redaction: SecretRedaction(secrets: [])))
    try Self.checkFlavor(reply, what: what)
    let project = String(decoding: reply.body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    guard !project.isEmpty, !project.contains(where: { $0.isWhitespace || $0 == "/" }) else {
      throw FirestoreError(.unavailable, "\(what) answered with something that is not a project ID")
    }
    cachedProjectID.withLock { $0 = project }
    return project
  }

  /// Whether a metadata server answers at `host` within `timeout`: the check
  /// ``ApplicationDefaultCredentials`` makes before choosing it.
  public static func isAvailable(
    host: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment, timeout: Duration = .seconds(3),
    transport: (any Transport)? = nil
  ) async -> Bool {
    let resolved = host ?? Self.host(environment: environment)
    guard let probe = TokenEndpointRPC.metadata(.probe, host: resolved) else { return false }
    let transport = transport ?? FirestoreSettings.defaultTransport
    let reply = try? await Deadline.run(timeout, what: "metadata server probe") {
      let response = try await transport.send(probe.request)
      _ = try? await response.collectBody(limit: 1 << 16)
      return response
    }
    guard let reply else { return false }
    return reply.headers["metadata-flavor"] == "Google"
  }

  /// A reply without `Metadata-Flavor: Google` did not come from a metadata server.
  static func checkFlavor(_ reply: TokenEndpointClient.Reply, what: String) throws(FirestoreError) {
    guard reply.headers["metadata-flavor"] == "Google" else {
      throw FirestoreError(.unavailable, "\(what) answered without \"Metadata-Flavor: Google\"; it is not a metadata server")
    }
  }

  /// `MetadataServerTokenProvider(host: …, service_account: …)`.
  public var description: String { "MetadataServerTokenProvider(host: \(host), service_account: \(serviceAccount))" }
}
