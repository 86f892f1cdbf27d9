import FirestorePlatform
import FirestoreWire
import Foundation

extension Firestore {
  /// The instances ``firestore(database:)`` handed out, by database ID.
  private static let shared = Locked<[String: Firestore]>([:])

  /// The shared instance for the default database of the project the environment names,
  /// as the Apple SDK's `Firestore.firestore()`: every call returns the same instance (a new
  /// one after ``terminate()``).
  ///
  /// The project is found the way the Google Cloud server SDKs find it (see
  /// ``detectedProjectID(environment:)``); settings come from ``FirestoreSettings/init()``:
  /// with `FIRESTORE_EMULATOR_HOST` the emulator, otherwise production with Application
  /// Default Credentials. As in the Apple SDK, the instance's cache is persistent
  /// (``PersistentCacheSettings``, in its default directory) until its settings say
  /// otherwise. When no project can be found, every call fails with `invalidArgument` saying
  /// how to name one.
  ///
  /// ```swift
  /// // FIRESTORE_EMULATOR_HOST=127.0.0.1:8080 GOOGLE_CLOUD_PROJECT=demo-app swift run
  /// let db = Firestore.firestore()
  /// ```
  public static func firestore() -> Firestore {
    firestore(database: "(default)")
  }

  /// The shared instance for a named database of the project the environment names (see
  /// ``firestore()``).
  public static func firestore(database: String) -> Firestore {
    shared.withLock { instances in
      if let db = instances[database] { return db }
      let db = makeShared(database: database, environment: ProcessInfo.processInfo.environment)
      instances[database] = db
      return db
    }
  }

  /// Forgets a terminated shared instance, so that the next ``firestore(database:)`` makes a new one.
  static func forgetShared(_ db: Firestore) {
    shared.withLock { instances in
      if instances[db.databaseID] === db { instances[db.databaseID] = nil }
    }
  }

  /// A new instance as ``firestore(database:)`` makes it, for the given environment.
  static func makeShared(database: String, environment: [String: String]) -> Firestore {
    let settings = FirestoreSettings(environment: environment)
    // The app's own instance keeps its cache on disk, as the Apple SDK's does: cached
    // documents and queued writes outlive the process.
    settings.cacheSettings = PersistentCacheSettings()
    if settings.tokenProvider == nil {
      settings.tokenProvider = ApplicationDefaultTokenProvider(environment: environment)
    }
    guard let projectID = detectedProjectID(environment: environment) else {
      let error = FirestoreError.invalidArgument(
        "Firestore.firestore() found no project ID: set GOOGLE_CLOUD_PROJECT, point GOOGLE_APPLICATION_CREDENTIALS at a "
          + "service account key, set a gcloud project (gcloud config set project), or create the instance with Firestore(projectID:)")
      return Firestore(projectID: "unknown-project", database: database, settings: settings, configurationError: error)
    }
    return Firestore(projectID: projectID, database: database, settings: settings)
  }

  /// The project the environment names, looked for in the order of the Google Cloud server
  /// SDKs: `GOOGLE_CLOUD_PROJECT` (or `GCLOUD_PROJECT`), the credentials file named by
  /// `GOOGLE_APPLICATION_CREDENTIALS` (a service account key's `project_id`, an
  /// `authorized_user` file's `quota_project_id`), gcloud's application default
  /// credentials file, gcloud's active configuration (`core/project`); with
  /// `FIRESTORE_EMULATOR_HOST` set and nothing found, `dummy-emulator-firestore-project`,
  /// as the Go client does. `nil` when nothing names one. (The metadata server, which the
  /// server SDKs ask last, is not asked: this answer is needed at once; on Google Cloud set
  /// `GOOGLE_CLOUD_PROJECT` or use ``init(database:settings:)``.)
  public static func detectedProjectID(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
    let nonEmpty = { (value: String?) -> String? in value.flatMap { $0.isEmpty ? nil : $0 } }
    if let project = nonEmpty(environment["GOOGLE_CLOUD_PROJECT"]) ?? nonEmpty(environment["GCLOUD_PROJECT"]) {
      return project
    }
    var files: [String] = []
    if let path = nonEmpty(environment["GOOGLE_APPLICATION_CREDENTIALS"]) { files.append(path) }
    if let path = ApplicationDefaultCredentials.gcloudFilePath(environment: environment) { files.append(path) }
    for path in files where FileManager.default.fileExists(atPath: path) {
      switch try? CredentialsFile.load(path: path) {
      case .serviceAccount(let credentials)?: return credentials.projectID
      case .authorizedUser(let credentials)?: if let project = credentials.quotaProjectID { return project }
      case nil: continue
      }
    }
    if let project = gcloudConfiguredProject(environment: environment) { return project }
    if nonEmpty(environment["FIRESTORE_EMULATOR_HOST"]) != nil { return "dummy-emulator-firestore-project" }
    return nil
  }

  /// `core/project` of gcloud's active configuration
  /// (`$CLOUDSDK_CONFIG/configurations/config_<name>`, the name from
  /// `$CLOUDSDK_ACTIVE_CONFIG_NAME` or the `active_config` file, `default` otherwise).
  static func gcloudConfiguredProject(environment: [String: String]) -> String? {
    let directory: String
    if let config = environment["CLOUDSDK_CONFIG"], !config.isEmpty {
      directory = config
    } else if let home = environment["HOME"], !home.isEmpty {
      directory = (home as NSString).appendingPathComponent(".config/gcloud")
    } else {
      return nil
    }
    let activeFile = (directory as NSString).appendingPathComponent("active_config")
    let active =
      environment["CLOUDSDK_ACTIVE_CONFIG_NAME"].flatMap { $0.isEmpty ? nil : $0 }
      ?? (try? String(contentsOfFile: activeFile, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "default"
    let path = (directory as NSString).appendingPathComponent("configurations/config_\(active)")
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
    var section = ""
    for line in text.split(whereSeparator: \.isNewline) {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if trimmed.hasPrefix("[") && trimmed.hasSuffix("]") {
        section = String(trimmed.dropFirst().dropLast())
      } else if section == "core", let equals = trimmed.firstIndex(of: "=") {
        let key = trimmed[..<equals].trimmingCharacters(in: .whitespaces)
        let value = trimmed[trimmed.index(after: equals)...].trimmingCharacters(in: .whitespaces)
        if key == "project" && !value.isEmpty { return value }
      }
    }
    return nil
  }
}
