import Foundation

/// Application Default Credentials: the credentials Google's SDKs find without being
/// told, in the usual order.
///
/// 1. `GOOGLE_APPLICATION_CREDENTIALS`: the path of a service account key or an
///    `authorized_user` file. When it is set, it must work: a bad file is an error, not a
///    reason to look further.
/// 2. The gcloud ADC file, written by `gcloud auth application-default login`:
///    `$CLOUDSDK_CONFIG/application_default_credentials.json`, or
///    `~/.config/gcloud/application_default_credentials.json`.
/// 3. The metadata server, when one answers (on Google Cloud).
///
/// When none applies, the error lists what was tried. The project ID comes from
/// `GOOGLE_CLOUD_PROJECT` (or `GCLOUD_PROJECT`) when set, else from the credentials.
///
/// ```swift
/// let adc = try await ApplicationDefaultCredentials.find()
/// let settings = FirestoreSettings()
/// settings.tokenProvider = adc.tokenProvider
/// let db = Firestore(projectID: adc.projectID ?? "my-project", settings: settings)
/// ```
public struct ApplicationDefaultCredentials: Sendable, CustomStringConvertible {
  /// Where the credentials were found.
  public enum Source: Sendable, Equatable, CustomStringConvertible {
    /// The file named by `GOOGLE_APPLICATION_CREDENTIALS`.
    case environmentVariable(path: String)
    /// gcloud's application default credentials file.
    case gcloudFile(path: String)
    /// The metadata server at this host.
    case metadataServer(host: String)

    /// Where, in words.
    public var description: String {
      switch self {
      case .environmentVariable(let path): return "GOOGLE_APPLICATION_CREDENTIALS (\(path))"
      case .gcloudFile(let path): return "gcloud application default credentials (\(path))"
      case .metadataServer(let host): return "metadata server (\(host))"
      }
    }
  }

  /// The provider of access tokens.
  public let tokenProvider: any TokenProvider
  /// The project, from the environment or the credentials, when known.
  public let projectID: String?
  /// Where the credentials came from.
  public let source: Source

  /// Finds the credentials.
  ///
  /// - Parameters:
  ///   - environment: the variables to read (`GOOGLE_APPLICATION_CREDENTIALS`,
  ///     `CLOUDSDK_CONFIG`, `HOME`, `GCE_METADATA_HOST`, `GOOGLE_CLOUD_PROJECT`).
  ///   - metadataTimeout: how long to wait for a metadata server to answer.
  ///   - transport: what carries token requests (and the metadata probe).
  /// - Throws: ``FirestoreError`` (`invalidArgument`) naming the file and field of a bad
  ///   credentials file, or (`unauthenticated`) listing every place looked at when none
  ///   holds credentials.
  public static func find(
    environment: [String: String] = ProcessInfo.processInfo.environment, metadataTimeout: Duration = .seconds(3),
    transport: (any Transport)? = nil
  ) async throws -> ApplicationDefaultCredentials {
    var tried: [String] = []
    let envProject = ["GOOGLE_CLOUD_PROJECT", "GCLOUD_PROJECT"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty }

    if let path = environment["GOOGLE_APPLICATION_CREDENTIALS"], !path.isEmpty {
      return try fromFile(
        path, source: .environmentVariable(path: path), what: "GOOGLE_APPLICATION_CREDENTIALS file",
        project: envProject, transport: transport)
    }
    tried.append("GOOGLE_APPLICATION_CREDENTIALS is not set")

    if let path = gcloudFilePath(environment: environment) {
      if FileManager.default.fileExists(atPath: path) {
        return try fromFile(
          path, source: .gcloudFile(path: path), what: "gcloud credentials file", project: envProject,
          transport: transport)
      }
      tried.append("no gcloud credentials file at \(path) (run `gcloud auth application-default login`)")
    } else {
      tried.append("no gcloud credentials file (neither CLOUDSDK_CONFIG nor HOME is set)")
    }

    let host = MetadataServerTokenProvider.host(environment: environment)
    if await MetadataServerTokenProvider.isAvailable(host: host, timeout: metadataTimeout, transport: transport) {
      let provider = MetadataServerTokenProvider(host: host, transport: transport)
      let project: String?
      if let envProject {
        project = envProject
      } else {
        project = try? await provider.projectID()
      }
      return ApplicationDefaultCredentials(tokenProvider: provider, projectID: project, source: .metadataServer(host: host))
    }
    tried.append("no metadata server answered at \(host) within \(metadataTimeout)")

    throw FirestoreError(.unauthenticated, "no Application Default Credentials found; tried: " + tried.joined(separator: "; "))
  }

  /// `$CLOUDSDK_CONFIG/application_default_credentials.json` or the one under `~/.config/gcloud`.
  static func gcloudFilePath(environment: [String: String]) -> String? {
    if let config = environment["CLOUDSDK_CONFIG"], !config.isEmpty {
      return (config as NSString).appendingPathComponent("application_default_credentials.json")
    }
    guard let home = environment["HOME"], !home.isEmpty else { return nil }
    return (home as NSString).appendingPathComponent(".config/gcloud/application_default_credentials.json")
  }

  private static func fromFile(
    _ path: String, source: Source, what: String, project: String?, transport: (any Transport)?
  ) throws(FirestoreError) -> ApplicationDefaultCredentials {
    switch try CredentialsFile.load(path: path, what: what) {
    case .serviceAccount(let credentials):
      return ApplicationDefaultCredentials(
        tokenProvider: try ServiceAccountTokenProvider(credentials: credentials, transport: transport),
        projectID: project ?? credentials.projectID, source: source)
    case .authorizedUser(let credentials):
      return ApplicationDefaultCredentials(
        tokenProvider: try AuthorizedUserTokenProvider(credentials: credentials, transport: transport),
        projectID: project ?? credentials.quotaProjectID, source: source)
    }
  }

  /// `ApplicationDefaultCredentials(source: …, project: …)`; no secrets.
  public var description: String { "ApplicationDefaultCredentials(source: \(source), project: \(projectID ?? "unknown"))" }
}
