import CommandLineSupport
import FirestoreClient
import FirestoreMock
import Foundation

/// The Firestore client a command talks through, and the in-process mock server behind it
/// when `--mock` was given.
final class Connection: Sendable {
  /// The client.
  let firestore: Firestore
  /// The mock server of `--mock`, stopped by ``close()``.
  let mockServer: MockFirestoreServer?
  /// Whether the server is the mock or an emulator, which need no ramp-up of bulk writes.
  let isEmulated: Bool

  private init(firestore: Firestore, mockServer: MockFirestoreServer?, isEmulated: Bool) {
    self.firestore = firestore
    self.mockServer = mockServer
    self.isEmulated = isEmulated
  }

  /// `projects/{p}/databases/{d}/documents`.
  var documentsRoot: String { "projects/\(firestore.projectID)/databases/\(firestore.databaseID)/documents" }

  /// Connects as the global options say: the mock, an emulator, or production with a
  /// service account key or application default credentials.
  ///
  /// The project is `--project`, else `FIRESTORE_PROJECT`, `GOOGLE_CLOUD_PROJECT`,
  /// `GCLOUD_PROJECT`, else the one a `--credentials` key names, else `demo-project` for an
  /// emulator or the mock, else the one application default credentials name. An emulator
  /// or the mock gets the emulator's owner token even with `--credentials` (the key is
  /// still read and checked): emulators ignore real tokens, and fetching one would need
  /// the network.
  static func open(_ options: GlobalOptions, environment: [String: String]) async throws -> Connection {
    let envProject = ["FIRESTORE_PROJECT", "GOOGLE_CLOUD_PROJECT", "GCLOUD_PROJECT"].lazy.compactMap { environment[$0] }.first {
      !$0.isEmpty
    }
    var project = options.project ?? envProject
    var keyProvider: ServiceAccountTokenProvider?
    if let path = options.credentials {
      let provider = try ServiceAccountTokenProvider(contentsOf: path)
      keyProvider = provider
      if project == nil { project = try await provider.projectID() }
    }
    var settings: FirestoreSettings
    var mockServer: MockFirestoreServer?
    if options.mock {
      let server: MockFirestoreServer
      do {
        server = try MockFirestoreServer.start()
      } catch {
        throw CLIFailure("UNAVAILABLE", "cannot start the mock server: \(error)")
      }
      mockServer = server
      settings = .emulator(host: server.hostAndPort)
      project = project ?? "demo-project"
    } else if let host = options.emulatorHost {
      settings = .emulator(host: host)
      project = project ?? "demo-project"
    } else {
      settings = FirestoreSettings(environment: [:])
      if let host = options.host {
        settings.host = host
        settings.isSSLEnabled = !options.insecure
      }
      if let token = options.token {
        settings.tokenProvider = StaticTokenProvider(token)
      } else if let keyProvider {
        settings.tokenProvider = keyProvider
      } else {
        let adc = try await ApplicationDefaultCredentials.find(environment: environment)
        settings.tokenProvider = adc.tokenProvider
        project = project ?? adc.projectID
      }
    }
    guard let project, !project.isEmpty else {
      mockServer?.stop()
      throw UsageError("no project: pass --project ID or set FIRESTORE_PROJECT (or GOOGLE_CLOUD_PROJECT)")
    }
    if let token = options.token, options.mock || options.emulatorHost != nil {
      settings.tokenProvider = StaticTokenProvider(token)
    }
    if options.caFile != nil || options.proxy != nil {
      #if canImport(CCurl)
        settings.transport = CurlTransport(trustedCertificates: options.caFile, proxy: options.proxy)
      #else
        throw UsageError("--ca-file and --proxy need the libcurl transport, which this platform does not build")
      #endif
    }
    if let timeout = options.callTimeout { settings.timeout = timeout }
    // A command line reads and writes once; a local cache would only cost memory.
    settings.cache = .none
    let connection = Connection(
      firestore: Firestore(projectID: project, database: options.database, settings: settings), mockServer: mockServer,
      isEmulated: options.mock || options.emulatorHost != nil)
    if let file = options.mockData {
      do {
        let importer = DocumentImporter(
          firestore: connection.firestore, documentsRoot: connection.documentsRoot, rampsUp: !connection.isEmulated)
        _ = try await importer.run(try LineReader(path: file), progress: ProgressLine(verb: "loaded", enabled: false))
      } catch {
        await connection.close()
        throw error
      }
    }
    return connection
  }

  /// Ends the client (its listeners, retries and connections) and stops the mock server, if
  /// there is one: nothing of the client may still run when the process exits, whose
  /// clean-up frees the TLS library under a handshake that is still going.
  func close() async {
    try? await firestore.terminate()
    mockServer?.stop()
  }
}
